import Foundation
import StoreContract
import StorePostgres
import Testing
import TrailbookTestSupport

/// The PostgreSQL store keeps every clause of the store contract, as the SQLite store does: each
/// clause on a new database of the test cluster.
@Suite struct PostgresContractTests {
    @Test(arguments: StoreContract.cases)
    func postgresStoreKeepsTheContract(_ clause: StoreContract.Case) throws {
        let cluster = try PostgresCluster.shared()
        let store = try PostgresStore(
            url: try cluster.newDatabase(), mediaDirectory: try Samples.temporaryDirectory() + "/media")
        defer { store.close() }
        try clause.check(store)
    }
}

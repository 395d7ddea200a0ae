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

    @Test(arguments: StoreContract.cases)
    func postgresStoreKeepsTheContractInsideOneUnitOfWork(_ clause: StoreContract.Case) throws {
        let store = try PostgresStore(
            url: try PostgresCluster.shared().newDatabase(), mediaDirectory: try Samples.temporaryDirectory() + "/media"
        )
        defer { store.close() }
        try store.writeNow { tx in try clause.check(tx) }
    }

    @Test(arguments: StoreContract.unitCases)
    func postgresUnitsOfWorkKeepTheContract(_ clause: StoreContract.UnitCase) async throws {
        let store = try PostgresStore(
            url: try PostgresCluster.shared().newDatabase(), mediaDirectory: try Samples.temporaryDirectory() + "/media"
        )
        defer { store.close() }
        try await clause.check(store)
    }
}

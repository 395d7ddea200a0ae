import Foundation
import StoreContract
import Testing
import TrailbookTestSupport

@testable import StorePostgres

/// The PostgreSQL store keeps every clause of the store contract, as the SQLite store does: each
/// clause on a new database of the test cluster, inside a unit of work (the store itself has no
/// operations).
@Suite struct PostgresContractTests {
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

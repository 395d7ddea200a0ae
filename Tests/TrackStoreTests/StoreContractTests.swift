import Foundation
import StoreContract
import Testing
import TrailbookTestSupport

@testable import TrackStore

/// The SQLite store keeps every clause of the store contract (the PostgreSQL store runs the same).
@Suite struct StoreContractTests {
    @Test(arguments: StoreContract.cases)
    func sqliteStoreKeepsTheContractInsideOneUnitOfWork(_ clause: StoreContract.Case) throws {
        let store = try TrackStore(path: try Samples.temporaryDirectory() + "/contract.sqlite")
        try store.writeNow { tx in try clause.check(tx) }
    }

    @Test(arguments: StoreContract.unitCases)
    func sqliteUnitsOfWorkKeepTheContract(_ clause: StoreContract.UnitCase) async throws {
        let store = try TrackStore(path: try Samples.temporaryDirectory() + "/contract.sqlite")
        try await clause.check(store)
    }
}

import Foundation
import Synchronization
import Testing
import TrailbookTestSupport

@testable import TrackStore

/// Group commit: async write units that wait for the writer share one transaction, each in a
/// savepoint of its own.
@Suite struct WriteGroupTests {
    struct Refused: Error, Equatable {}

    @Test func unitsThatWaitCommitTogetherAndOneThatThrowsIsRolledBackAlone() async throws {
        let store = try TrackStore(path: try Samples.temporaryDirectory() + "/s.sqlite")
        // The writer held by a synchronous unit on a thread of its own until 40 units wait.
        let holding = Atomic<Bool>(false)
        let release = Atomic<Bool>(false)
        Thread {
            _ = try? store.writeNow { _ in
                holding.store(true, ordering: .sequentiallyConsistent)
                while !release.load(ordering: .sequentiallyConsistent) { usleep(1000) }
            }
        }.start()
        while !holding.load(ordering: .sequentiallyConsistent) { try await Task.sleep(for: .milliseconds(2)) }
        let outcomes = try await withThrowingTaskGroup(of: (Int, Bool).self) { group in
            for i in 0..<40 {
                group.addTask {
                    do {
                        _ = try await store.write { unit in
                            _ = try unit.device(named: "d\(i)")
                            if i == 7 { throw Refused() }
                        }
                        return (i, true)
                    } catch is Refused {
                        return (i, false)
                    }
                }
            }
            // Every unit waits: in the group the drain took to the writer (the first, or on a busy
            // machine, more that came before the drain began), or for the next.
            let deadline = ContinuousClock.now + .seconds(120)
            while store.writeGroups.added.load(ordering: .relaxed) < 40 && ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(2))
            }
            #expect(store.writeGroups.added.load(ordering: .relaxed) == 40, "the units wait for the writer together")
            #expect(store.writeGroups.written.load(ordering: .relaxed) == 0, "nothing is written while held")
            release.store(true, ordering: .sequentiallyConsistent)
            return try await group.reduce(into: [Int: Bool]()) { $0[$1.0] = $1.1 }
        }
        #expect(outcomes.count == 40)
        #expect(outcomes.filter { !$0.value }.map(\.key) == [7], "only the unit that threw fails")
        let names = Set(try store.readNow { try $0.devices() }.map(\.name))
        #expect(names.isSuperset(of: (0..<40).filter { $0 != 7 }.map { "d\($0)" }))
        #expect(!names.contains("d7"), "its device was rolled back with its savepoint")
        let groups = store.writeGroups.written.load(ordering: .relaxed)
        #expect((1...2).contains(groups), "40 units that waited together: \(groups) transactions")
    }
}

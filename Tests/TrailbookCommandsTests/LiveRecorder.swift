import Foundation
import RideSimulator
import TrailbookTestSupport

/// Runs `trailbook record` on a receiver that is a pseudo-terminal (`dir/name`), feeds it
/// `epochs` (250 a second), waits until `done` holds (at most 20 s) or else `settle` seconds
/// (the last epoch is flushed after 1.5 s of quiet), stops it with SIGTERM and returns its exit
/// status.
func recordLive(
    _ epochs: [DaySimulator.Epoch], store: String, dir: String, name: String = "ttyGPS", arguments: [String] = [],
    settle: Double = 2.5, done: (() -> Bool)? = nil
) throws -> Int32 {
    let pty = try PseudoTerminal(linkPath: dir + "/" + name)
    let record = Process()
    record.executableURL = try trailbookBinary()
    record.arguments = ["record", "--device", pty.linkPath, "--store", store, "--log-level", "warning"] + arguments
    record.standardOutput = FileHandle.nullDevice
    record.standardError = FileHandle.nullDevice
    try record.run()
    try pty.awaitOpened()
    Feeder(pty, epochs: epochs.map { Array($0.sentences.joined().utf8) }, rate: 250).wait()
    if let done {
        let deadline = Date().addingTimeInterval(20)
        while !done() && Date() < deadline { Thread.sleep(forTimeInterval: 0.25) }
    } else {
        Thread.sleep(forTimeInterval: settle)
    }
    kill(record.processIdentifier, SIGTERM)
    record.waitUntilExit()
    return record.terminationStatus
}

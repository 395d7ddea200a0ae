import ArgumentParser

/// `trailbook simulate`: placeholder replaced below.
struct Simulate: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Write a simulated NMEA ride.")
    func run() throws {}
}

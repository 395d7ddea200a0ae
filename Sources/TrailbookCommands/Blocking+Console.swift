import GPSCore

extension Blocking {
    /// ``Blocking/run(_:)`` for a command's own blocking work (opening the store, reading
    /// standard input, an editor, a question on the terminal): the body sees the command's
    /// console (``Console/current``), which a kept thread does not.
    static func runOnConsole<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
        let console = Console.current
        return try await run { try Console.$current.withValue(console) { try body() } }
    }
}

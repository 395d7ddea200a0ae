import GPSDevices
import Logging
import ServiceLifecycle

#if canImport(Glibc)
    import Glibc
#endif

/// Runs a long-running command (`watch`, `record`) as one swift-service-lifecycle service under
/// a `ServiceGroup`: SIGINT and SIGTERM shut it down gracefully (it stores or prints what is
/// pending, then returns); its own end (a replay finished, a count reached) ends the group;
/// what it throws is rethrown, a device failure as its exit code.
enum ServiceRunner {
    static func run(_ service: some Service, logger: Logger) async throws {
        try await run([service], logger: logger)
    }

    /// Runs `services` together; a stop reaches them in reverse order, each finishing before
    /// the one before it is told (a recorder's last commit before its uploader's last try).
    static func run(_ services: [any Service], logger: Logger) async throws {
        // A parent process may have left both signals blocked; the group must receive them.
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        let group = ServiceGroup(
            configuration: .init(
                services: services.map {
                    .init(
                        service: $0, successTerminationBehavior: .gracefullyShutdownGroup,
                        failureTerminationBehavior: .gracefullyShutdownGroup)
                },
                gracefulShutdownSignals: [.sigterm, .sigint], cancellationSignals: [], logger: logger))
        do {
            try await group.run()
        } catch let error as DeviceError {
            throw error.commandFailure
        }
    }
}

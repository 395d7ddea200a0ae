import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// SIGINT and SIGTERM ask a running command to stop cleanly; the command polls ``requested``.
enum StopSignal {
    private static let flag = Atomic<Bool>(false)

    /// Installs the handlers (an atomic store is safe inside a signal handler) and unblocks
    /// both signals, which a parent process may have left blocked.
    static func install() {
        signal(SIGINT) { _ in StopSignal.flag.store(true, ordering: .relaxed) }
        signal(SIGTERM) { _ in StopSignal.flag.store(true, ordering: .relaxed) }
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    static var requested: Bool { flag.load(ordering: .relaxed) }
}

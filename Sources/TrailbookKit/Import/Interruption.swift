import Foundation
import Synchronization

/// Ctrl-C (SIGINT) as a request to stop at the next point where stopping loses nothing (an
/// import: between blocks of a file, whose transaction then rolls back); a second Ctrl-C ends
/// the process at once, as usual.
public enum Interruption {
    private static let requested = Atomic<Bool>(false)

    /// Takes SIGINT as a request from now on, on the calling thread too: a process started by
    /// one whose thread blocked SIGINT (a server's signal handling) inherits that mask, and the
    /// signal would wait unseen until the import ended.
    public static func catchSIGINT() {
        // Made before the handler can run: a signal handler must not be the first to touch it.
        _ = requested.load(ordering: .relaxed)
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        signal(SIGINT) { _ in
            // Only async-signal-safe work here: an atomic exchange, signal() and raise().
            if Interruption.requested.exchange(true, ordering: .relaxed) {
                signal(SIGINT, SIG_DFL)
                raise(SIGINT)
            }
        }
    }

    /// Whether Ctrl-C was pressed since ``catchSIGINT()``.
    public static var isRequested: Bool { requested.load(ordering: .relaxed) }
}

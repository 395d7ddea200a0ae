/// The rule of redeeming a share code, written once: a store reads the rows it names (the
/// viewer, its recent failures, the code with that hash) within one transaction and carries out
/// the ``Plan`` in its own SQL.
///
/// A viewer that failed `maxFailures` times within the window is refused before the code is
/// looked at; a code that is not there or has expired is a failure, noted against the viewer;
/// the viewer's own code is refused (nothing noted, it is used up by nobody); any other live
/// code is used up as it is redeemed and sets the viewer's grant from its owner (a grant there
/// already is replaced: new scopes, new history, not paused, no end).
public struct ShareCodeRedemption: Equatable, Sendable {
    /// Failures within `window` that shut a viewer out.
    public var maxFailures: Int
    /// ms.
    public var window: Int64

    public init(maxFailures: Int, window: Int64) {
        self.maxFailures = maxFailures
        self.window = window
    }

    /// A stored code: its row id, owner, scopes (comma-separated) and history, and when it expires (ms).
    public struct Code: Equatable, Sendable {
        public var id: Int64
        public var owner: Int64
        public var scopes: String
        public var historyHours: Int
        public var expires: Int64

        public init(id: Int64, owner: Int64, scopes: String, historyHours: Int, expires: Int64) {
            self.id = id
            self.owner = owner
            self.scopes = scopes
            self.historyHours = historyHours
            self.expires = expires
        }
    }

    public enum Plan: Equatable, Sendable {
        /// Nothing is written; the answer is this (``Redemption/unknown`` for a viewer the store
        /// does not have, ``Redemption/throttled``, ``Redemption/own``).
        case refuse(Redemption)
        /// A failure is noted for the viewer at `now`; the answer is ``Redemption/unknown``.
        case noteFailure
        /// Code `code` goes, and the grant from its owner to the viewer is set from it.
        case grant(Code)
    }

    /// Failures of the viewer after this time count (ms).
    public func failuresSince(now: Int64) -> Int64 { now - window }

    /// The plan for `viewer` (its id, nil when the store has no such account), with `failures`
    /// noted after ``failuresSince(now:)``, for the stored code with the hash asked for (nil: none).
    public func plan(viewer: Int64?, failures: Int, code: Code?, now: Int64) -> Plan {
        guard let viewer else { return .refuse(.unknown) }
        if failures >= maxFailures { return .refuse(.throttled) }
        guard let code, code.expires > now else { return .noteFailure }
        if code.owner == viewer { return .refuse(.own) }
        return .grant(code)
    }
}

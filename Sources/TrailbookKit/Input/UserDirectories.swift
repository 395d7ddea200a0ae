import Foundation
import GPSCore

/// Where a user's files go, as every Unix tool finds them: `$HOME` when it is set (else the home
/// of the account in the password database), and the XDG base directories when they are set
/// (an empty value counts as unset).
public enum UserDirectories {
    public static func home(_ env: [String: String] = Console.current.environment) -> String {
        env["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
    }

    /// `$XDG_DATA_HOME`, else `~/.local/share`.
    public static func data(_ env: [String: String] = Console.current.environment) -> String {
        xdg("XDG_DATA_HOME", env) ?? home(env) + "/.local/share"
    }

    /// `$XDG_CONFIG_HOME`, else `~/.config`.
    public static func config(_ env: [String: String] = Console.current.environment) -> String {
        xdg("XDG_CONFIG_HOME", env) ?? home(env) + "/.config"
    }

    /// `$XDG_CACHE_HOME`, else `~/.cache`.
    public static func cache(_ env: [String: String] = Console.current.environment) -> String {
        xdg("XDG_CACHE_HOME", env) ?? home(env) + "/.cache"
    }

    static func xdg(_ name: String, _ env: [String: String]) -> String? {
        env[name].flatMap { $0.isEmpty ? nil : $0 }
    }
}

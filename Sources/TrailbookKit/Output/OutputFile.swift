import GPSCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The command's standard output, or a file written under a temporary name and renamed into place on
/// ``commit()``, so a failed run never leaves a half-written file behind.
public final class OutputFile {
    public let fd: Int32
    private let path: String?
    private let temporaryPath: String?
    private var committed = false

    /// `suffix`: the file type, for the example name in the message when `path` is a folder.
    public init(path: String?, suffix: String? = nil) throws {
        guard let path, path != "-" else {
            fd = Console.current.output
            self.path = nil
            temporaryPath = nil
            return
        }
        var info = stat()
        if stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR {
            throw OutputError.isAFolder(path: path, suffix: suffix ?? "out")
        }
        let temp = path + ".part-\(getpid())"
        var fd: Int32
        // A fresh file, never a link someone planted at the temporary name (the final rename
        // replaces a link at the real name rather than writing through it).
        unlink(temp)
        repeat {
            fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        } while fd < 0 && errno == EINTR
        guard fd >= 0 else {
            let reason = String(cString: strerror(errno))
            throw OutputError.cannotCreate(path: path, reason: reason)
        }
        self.fd = fd
        self.path = path
        temporaryPath = temp
    }

    /// Makes the file visible under its real name.
    public func commit() throws {
        guard let path, let temporaryPath else { return }
        guard fsync(fd) == 0, rename(temporaryPath, path) == 0 else {
            let reason = String(cString: strerror(errno))
            throw OutputError.cannotFinish(path: path, reason: reason)
        }
        committed = true
    }

    deinit {
        if let temporaryPath {
            Posix.close(fd)
            if !committed { unlink(temporaryPath) }
        }
    }
}

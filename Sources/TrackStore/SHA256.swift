internal import CCrypto
import Foundation
import GPSCore

/// SHA-256 through the system's OpenSSL (libcrypto), for naming imported files and photos by
/// their content.
public final class SHA256 {
    private let context: OpaquePointer

    public init() {
        context = EVP_MD_CTX_new()!
        EVP_DigestInit_ex(context, EVP_sha256(), nil)
    }

    deinit { EVP_MD_CTX_free(context) }

    /// Adds bytes to the message.
    public func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress else { return }
        EVP_DigestUpdate(context, base, bytes.count)
    }

    public func update<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        Array(bytes).withUnsafeBytes { update($0) }
    }

    /// The digest as 64 lowercase hex digits.
    public func finalizeHex() -> String {
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        EVP_DigestFinal_ex(context, &digest, &length)
        let hex = Array("0123456789abcdef".utf8)
        return String(decoding: digest.flatMap { [hex[Int($0 >> 4)], hex[Int($0 & 15)]] }, as: UTF8.self)
    }

    /// The digest of a file's bytes, read in 1 MB chunks.
    public static func hexDigest(ofFile path: String) throws(Errno) -> String {
        let fd = try Posix.open(path, O_RDONLY)
        defer { Posix.close(fd) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        let hash = SHA256()
        while true {
            let n = try Posix.read(fd, into: buffer)
            if n <= 0 { break }
            hash.update(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
        }
        return hash.finalizeHex()
    }
}

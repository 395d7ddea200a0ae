internal import CZlib

/// Decompresses a gzip file fed in chunks (several members one after another, as `cat a.gz
/// b.gz` makes, included), through the system zlib.
public final class GzipStream {
    private var stream = z_stream()
    private let output: UnsafeMutableRawBufferPointer
    /// Whether the last member ended cleanly (false while inside one).
    private var atMemberEnd = false
    private var started = false

    /// What went wrong, in words for a sentence ("the data is corrupt", ...).
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// Whether `bytes` start with the gzip magic number.
    public static func isGzip(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count >= 2 && bytes[0] == 0x1F && bytes[1] == 0x8B
    }

    public init() throws(Failure) {
        output = .allocate(byteCount: 1 << 18, alignment: 16)
        guard tb_inflate_init_gzip(&stream) == Z_OK else {
            output.deallocate()
            throw Failure(description: "zlib could not start")
        }
    }

    deinit {
        inflateEnd(&stream)
        output.deallocate()
    }

    /// Decompresses `input`, calling `body` with each piece of output.
    public func feed(
        _ input: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        guard let base = input.baseAddress, input.count > 0 else { return }
        stream.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: Bytef.self))
        stream.avail_in = uInt(input.count)
        while stream.avail_in > 0 {
            if atMemberEnd {
                // Another member follows; anything but a gzip header there is trailing garbage.
                guard stream.next_in[0] == 0x1F else {
                    throw Failure(description: "there are bytes after the end of its gzip data")
                }
                inflateReset(&stream)
                atMemberEnd = false
            }
            started = true
            stream.next_out = output.baseAddress!.assumingMemoryBound(to: Bytef.self)
            stream.avail_out = uInt(output.count)
            let status = inflate(&stream, Z_NO_FLUSH)
            let produced = output.count - Int(stream.avail_out)
            if produced > 0 { try body(UnsafeRawBufferPointer(rebasing: output[0..<produced])) }
            switch status {
            case Z_STREAM_END: atMemberEnd = true
            case Z_OK, Z_BUF_ERROR: continue
            default:
                let reason = stream.msg.map { String(cString: $0) } ?? "error \(status)"
                throw Failure(description: "its gzip data is corrupt (\(reason))")
            }
        }
    }

    /// Checks that the input ended at the end of a gzip member.
    public func finish() throws(Failure) {
        if started && !atMemberEnd {
            throw Failure(description: "it ends in the middle of its gzip data (the file is truncated)")
        }
    }
}

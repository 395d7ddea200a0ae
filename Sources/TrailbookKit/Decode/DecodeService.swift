import GPSCore
import NMEA

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `decode` as a service: an NMEA log in, one row per epoch out on a file descriptor, nothing
/// stored.
public enum DecodeService {
    /// The rows: CSV with a header, or one JSON object per line.
    public enum Format: String, CaseIterable, Sendable { case csv, jsonl }

    /// Decodes `input` and writes its rows to `fd`. A large file is framed and checked on every
    /// core while this thread assembles and writes.
    ///
    /// - Parameters:
    ///   - fallbackDate: the UTC date of the first epoch, for logs that never carry a date.
    ///   - statistics: the counts are written to standard error at the end (before a failure,
    ///     so that when nothing decoded they say why).
    /// - Returns: the decoder's counts.
    /// - Throws: ``DecodeError/noNMEA(_:found:)`` when nothing in the input is NMEA (the output
    ///   then stays empty), ``OutputError`` when the rows cannot be written, the input's errors.
    @discardableResult
    public static func decode(
        _ input: InputFile, format: Format, fallbackDate: CivilDate?, statistics: Bool = false,
        to fd: Int32 = Console.current.output
    ) throws -> DecodeStatistics {
        let decoder = NMEADecoder(
            fallbackDate: fallbackDate, workers: NMEADecoder.workers(forFileOf: input.size ?? 0))
        var out = OutputBuffer(fd: fd)
        let csv = format == .csv
        // The header waits for the first row, so input that is not NMEA leaves the output empty.
        var started = false
        // A local function, not a closure value: its captured state is then checked for
        // exclusive access at compile time instead of on every row.
        func emit(_ fix: Fix) throws {
            if !started {
                started = true
                if csv { out.appendCSVHeader() }
            }
            if csv { out.appendCSVRow(fix) } else { out.appendJSONLine(fix) }
            try out.flushIfFull()
        }
        try input.forEachChunk(whole: decoder.isParallel) { chunk in try decoder.feed(chunk, emit) }
        try decoder.finish(emit)

        let s = decoder.statistics
        if statistics {
            printError(
                "trailbook decode: \(s.sentences) sentences read, \(s.decoded) decoded, "
                    + "\(s.badChecksum) bad checksum, \(s.missingChecksum) missing checksum, "
                    + "\(s.unknown) unknown, \(s.malformed) malformed, \(s.skippedBytes) skipped bytes; "
                    + "\(s.epochs) epochs, \(s.fixes) fixes")
        }
        if !s.foundNMEA {
            let found =
                input.bytesRead == 0
                ? "it is empty"
                : s.badChecksum > 0
                    ? "\(counted(s.badChecksum, "sentence")) with bad checksums and none that decoded"
                    : "\(input.bytesRead) bytes read"
            throw DecodeError.noNMEA(input.displayName, found: found)
        }
        if !started && csv { out.appendCSVHeader() }
        try out.flush()
        return s
    }
}

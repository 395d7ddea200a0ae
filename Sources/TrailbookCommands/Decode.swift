import ArgumentParser
import Foundation
import GPSCore
import TrailbookKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `trailbook decode`: NMEA in, one row per epoch out, nothing stored.
struct Decode: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Decode an NMEA 0183 log into one row per epoch, without storing it.",
        discussion: """
            Reads FILE (or standard input for -) in any state a serial line leaves it: \
            garbage, binary bursts, NUL bytes, cut and colliding lines, bad checksums. \
            Sentences that cannot be trusted are counted and skipped; use --stats to see the counts.

            CSV columns: time, mode (1 no fix, 2 2D, 3 3D), lat, lon (degrees, WGS-84, 9 decimals), \
            alt (m above mean sea level), speed (m/s), track (degrees true), quality (GGA indicator), \
            hdop, vdop, pdop, sats_used, sats_view, geoid_sep (m), err_lat, err_lon, err_alt \
            (1-sigma, m, from GST). Unknown values are empty. time is ISO 8601 UTC with \
            milliseconds, or the bare time of day when the log never gives a date and --date is not given.

            Dates come from RMC and ZDA; epochs before the first date are back-filled, and the \
            date advances at midnight even where no date sentence follows.
            """
    )

    @Argument(help: "The NMEA log to read; - for standard input.")
    var file: String?

    @Option(help: "Output format: csv or jsonl (one JSON object per epoch).")
    var format: DecodeService.Format = .csv

    @Option(
        help: ArgumentHelp(
            "UTC date of the first epoch, for logs that never carry a date (YYYY-MM-DD).",
            valueName: "YYYY-MM-DD"))
    var date: String?

    @Flag(
        help:
            "At the end, print counts (sentences read, decoded, bad checksum, unknown, skipped bytes) on standard error."
    )
    var stats = false

    func validate() throws {
        // A UTC date: the receiver's clock is UTC.
        if let date { try LocalDate.check(date, option: "--date") }
        if file == nil && Console.current.inputIsTerminal {
            throw ValidationError("Give an NMEA log to decode, or - to read standard input.")
        }
    }

    func run() throws {
        try DecodeService.decode(
            try InputFile(path: file ?? "-"), format: format,
            fallbackDate: date.flatMap { try? LocalDate.parse($0, zone: TimeZone(identifier: "UTC")!).get() },
            statistics: stats)
    }
}

extension DecodeService.Format: ExpressibleByArgument {}

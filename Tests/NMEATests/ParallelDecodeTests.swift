import Foundation
import GPSCore
import NMEA
import RideSimulator
import Testing

/// The two-stage decode (blocks framed and checked on worker threads, admitted and assembled in
/// order on the caller's) gives exactly what one thread gives: the same fixes in the same order
/// and the same counts, whatever the block size, the chunk size and the number of workers —
/// with block edges falling inside sentences, between CR and LF, in comments, binary bursts
/// and checksum-less stretches.
@Suite struct ParallelDecodeTests {
    /// `bytes` decoded by `workers` threads in blocks of `blockSize`, fed in chunks of `chunkSize`.
    static func decodeInBlocks(_ bytes: [UInt8], workers: Int, blockSize: Int, chunkSize: Int) -> (
        [Fix], DecodeStatistics
    ) {
        decode(bytes, chunkSize: chunkSize, workers: workers, blockSize: blockSize)
    }

    /// A 40-minute ride across midnight with 5% of its lines damaged, with a comment, a binary
    /// burst and a line longer than any block of 64 bytes.
    static func damagedRide(seed: UInt64) -> [UInt8] {
        let simulator = RideSimulator(
            .init(
                startDate: CivilDate(year: 2026, month: 6, day: 14)!, startTimeOfDay: 23 * 3_600_000 + 40 * 60_000,
                origin: Coordinate(latitude: 47.37, longitude: 8.54), duration: 2400, seed: seed))
        var corruptor = LineCorruptor(rate: 0.05, seed: seed)
        var out: [UInt8] = Array("# a recorded ride\r\n".utf8)
        for (n, epoch) in simulator.enumerated() {
            for line in epoch.sentences { out += corruptor.process(line).0 }
            if n == 700 { out += [0xB5, 0x62, 0x01, 0x07, 0x0D] + Array(repeating: 0x41, count: 300) + [0x0A] }
        }
        return out
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func damagedRidesDecodeAsOnOneThread(seed: UInt64) {
        let bytes = Self.damagedRide(seed: seed)
        let (reference, referenceStats) = decode(bytes)
        #expect(reference.count > 2000)
        #expect(referenceStats.badChecksum > 0 && referenceStats.skippedBytes > 0)
        for (workers, blockSize, chunkSize) in [(1, 64, 7), (2, 64, 4096), (2, 1000, 333), (3, 4096, 65536)] {
            let (fixes, stats) = Self.decodeInBlocks(
                bytes, workers: workers, blockSize: blockSize, chunkSize: chunkSize)
            #expect(fixes == reference, "workers \(workers), blocks of \(blockSize), chunks of \(chunkSize)")
            #expect(stats == referenceStats, "workers \(workers), blocks of \(blockSize), chunks of \(chunkSize)")
        }
    }

    @Test(arguments: [
        "ride.nmea", "edge/empty-fields.nmea", "edge/garbage.nmea", "edge/hemispheres.nmea", "edge/midnight.nmea",
        "edge/no-checksum.nmea", "edge/no-date.nmea", "edge/rollover.nmea",
    ])
    func samplesDecodeAsOnOneThread(name: String) throws {
        let bytes = try sampleBytes(name)
        let (reference, referenceStats) = decode(bytes)
        for blockSize in [1, 2, 50, 4096] {
            let (fixes, stats) = Self.decodeInBlocks(bytes, workers: 2, blockSize: blockSize, chunkSize: 1000)
            #expect(fixes == reference, "\(name), blocks of \(blockSize)")
            #expect(stats == referenceStats, "\(name), blocks of \(blockSize)")
        }
    }

    /// Lines ended by CR alone, and a stream that never ends a line: blocks still end only after
    /// a line end, growing when there is none.
    @Test func lineEndsOfEveryKind() {
        let text =
            sentence("GPGGA,000001,4722.614,N,00832.502,E,1,05,1.0,10.0,M,,M,,").replacingOccurrences(
                of: "\r\n", with: "\r")
            + sentence("GPRMC,000001,A,4722.614,N,00832.502,E,1.0,90.0,140626,,").replacingOccurrences(
                of: "\r\n", with: "\n")
            + sentence("GPGGA,000002,4722.615,N,00832.502,E,1,05,1.0,10.0,M,,M,,").replacingOccurrences(
                of: "\r\n", with: "\r\r\n")
            + String(repeating: "x", count: 500)
            // The last line has no line end ("\r\n" is one Character).
            + sentence("GPGGA,000003,4722.616,N,00832.502,E,1,05,1.0,10.0,M,,M,,").dropLast(1)
        let bytes = Array(text.utf8)
        let (reference, referenceStats) = decode(bytes)
        #expect(reference.count == 3)
        for blockSize in [1, 3, 64] {
            let (fixes, stats) = Self.decodeInBlocks(bytes, workers: 2, blockSize: blockSize, chunkSize: 5)
            #expect(fixes == reference && stats == referenceStats, "blocks of \(blockSize)")
        }
    }

    /// Three megabytes of sentences run together without a line end between two rides: the
    /// block stops growing at 1 MB and the rest of the line goes through the caller's framer,
    /// then blocks resume after the line end; whole or in chunks, as on one thread.
    @Test func aLongLineWithoutLineEnds() {
        let ride = Self.damagedRide(seed: 4)
        let unit = Array("$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,".utf8)
        var bytes = ride
        while bytes.count < ride.count + 3 << 20 { bytes += unit }
        bytes += Array("\r\n".utf8) + ride
        let (reference, referenceStats) = decode(bytes)
        for (workers, chunkSize) in [(1, bytes.count), (2, 1 << 20), (2, 4093)] {
            let (fixes, stats) = Self.decodeInBlocks(bytes, workers: workers, blockSize: 1 << 16, chunkSize: chunkSize)
            #expect(
                fixes == reference && stats == referenceStats,
                "workers \(workers), chunks of \(chunkSize): \(stats) against \(referenceStats)")
        }
    }

    /// A decoder dropped before its stream ends stops its workers (nothing hangs, nothing leaks
    /// a thread that keeps running).
    @Test func aDecoderDroppedHalfWayStops() {
        let bytes = Self.damagedRide(seed: 9)
        for _ in 0..<20 {
            let decoder = NMEADecoder(workers: 2, blockSize: 256)
            var seen = 0
            bytes.withUnsafeBytes { raw in
                decoder.feed(UnsafeRawBufferPointer(rebasing: raw[0..<(raw.count / 2)])) { _ in seen += 1 }
            }
            #expect(seen > 0)
        }
    }
}

import Foundation
import GPSCore
import NMEA

/// The package's Samples folder, found from this file's location.
let samplesDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Samples")

func sampleBytes(_ name: String) throws -> [UInt8] {
    Array(try Data(contentsOf: samplesDirectory.appendingPathComponent(name)))
}

/// `body` wrapped as a sentence with a valid checksum and CR LF.
func sentence(_ body: String) -> String {
    var sum: UInt8 = 0
    for b in body.utf8 { sum ^= b }
    return "$" + body + "*" + String(format: "%02X", sum) + "\r\n"
}

/// Decodes `bytes` fed in chunks of `chunkSize` (0: whole), returning fixes and statistics; with
/// `workers`, blocks of `blockSize` are checked on that many threads (``NMEADecoder``).
func decode(
    _ bytes: [UInt8], chunkSize: Int = 0, fallbackDate: CivilDate? = nil, workers: Int = 0, blockSize: Int = 1 << 17
) -> ([Fix], DecodeStatistics) {
    let decoder = NMEADecoder(fallbackDate: fallbackDate, workers: workers, blockSize: blockSize)
    var fixes: [Fix] = []
    let step = chunkSize == 0 ? max(1, bytes.count) : chunkSize
    bytes.withUnsafeBytes { raw in
        var offset = 0
        while offset < raw.count {
            let end = min(raw.count, offset + step)
            decoder.feed(UnsafeRawBufferPointer(rebasing: raw[offset..<end])) { fixes.append($0) }
            offset = end
        }
    }
    decoder.finish { fixes.append($0) }
    return (fixes, decoder.statistics)
}

func decode(_ text: String, fallbackDate: CivilDate? = nil) -> [Fix] {
    decode(Array(text.utf8), fallbackDate: fallbackDate).0
}

/// Every candidate the parser produces for `text`, decoded or rejected.
func outcomes(_ text: String) -> [SentenceParser.Outcome] {
    var framer = NMEAFramer()
    let parser = SentenceParser()
    var result: [SentenceParser.Outcome] = []
    Array(text.utf8).withUnsafeBytes { raw in
        framer.feed(raw) { parser.parse($0) { result.append($0) } }
        framer.finish { parser.parse($0) { result.append($0) } }
    }
    return result
}

func only(_ text: String) -> Sentence.Body? {
    if case .decoded(let s) = outcomes(text).first { return s.body }
    return nil
}

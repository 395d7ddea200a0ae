import NMEA
import Testing

/// Candidates as strings, for comparing framings.
private func frame(_ bytes: [UInt8], chunk: Int) -> ([String], Int) {
    var framer = NMEAFramer()
    var out: [String] = []
    bytes.withUnsafeBytes { raw in
        var offset = 0
        let step = chunk == 0 ? max(1, raw.count) : chunk
        while offset < raw.count {
            let end = min(raw.count, offset + step)
            framer.feed(UnsafeRawBufferPointer(rebasing: raw[offset..<end])) {
                out.append(String(decoding: $0, as: UTF8.self))
            }
            offset = end
        }
        framer.finish { out.append(String(decoding: $0, as: UTF8.self)) }
    }
    return (out, framer.skippedBytes)
}

@Suite struct FramerTests {
    @Test(arguments: ["edge/garbage.nmea", "edge/midnight.nmea", "ride.nmea"])
    func chunkSizeDoesNotMatter(sample: String) throws {
        let bytes = try sampleBytes(sample)
        let whole = frame(bytes, chunk: 0)
        #expect(!whole.0.isEmpty)
        for size in [1, 2, 7, 4096] {
            let chunked = frame(bytes, chunk: size)
            #expect(chunked.0 == whole.0, "chunks of \(size)")
            #expect(chunked.1 == whole.1, "skipped bytes with chunks of \(size)")
        }
    }

    @Test func lineEndsAndPrefixes() {
        let text = "$$GPAAA,1*00\r\r\n$GPBBB,2*00\n\n$GPCCC,3*00\r!AIVDM,x*00\r\n"
        #expect(frame(Array(text.utf8), chunk: 0).0 == ["$GPAAA,1*00", "$GPBBB,2*00", "$GPCCC,3*00", "!AIVDM,x*00"])
    }

    @Test func nulBytesAreDropped() {
        let bytes: [UInt8] = [0, 0] + Array("$GPA".utf8) + [0] + Array("AA,1*00\r\n".utf8)
        #expect(frame(bytes, chunk: 0).0 == ["$GPAAA,1*00"])
    }

    @Test func binaryBurstAbandonsTheSentence() {
        let bytes = Array("$GPAAA,12".utf8) + [0xB5, 0x62, 0x01] + Array("34*00\r\n$GPBBB,1*00\r\n".utf8)
        #expect(frame(bytes, chunk: 0).0 == ["$GPBBB,1*00"])
    }

    @Test func collisionEndsTheFirstCandidate() {
        #expect(frame(Array("$GPAAA,1$GPBBB,2*00\r\n".utf8), chunk: 0).0 == ["$GPAAA,1", "$GPBBB,2*00"])
    }

    @Test func overlongLinesAreAbandoned() {
        let long = "$GPGGA," + String(repeating: "9", count: 200) + "\r\n$GPBBB,1*00\r\n"
        let (out, skipped) = frame(Array(long.utf8), chunk: 0)
        #expect(out == ["$GPBBB,1*00"])
        #expect(skipped >= 200)
    }

    @Test func commentLinesAreSkipped() {
        #expect(frame(Array("# a $comment\n$GPAAA,1*00\n".utf8), chunk: 0).0 == ["$GPAAA,1*00"])
    }

    @Test func lastSentenceWithoutLineEnd() {
        #expect(frame(Array("$GPAAA,1*00".utf8), chunk: 3).0 == ["$GPAAA,1*00"])
    }
}

/// Turns a byte stream, delivered in chunks of any size, into candidate NMEA sentences.
///
/// A candidate runs from `$` or `!` up to the line end (CR, LF, or both in any number),
/// without the terminator. The framer knows nothing about fields or checksums; it only
/// finds sentence boundaries in whatever a serial line delivers:
///
/// - `$$GPGGA,...` is framed as `$GPGGA,...`;
/// - NUL bytes are dropped wherever they appear;
/// - any other control or non-ASCII byte inside a sentence abandons it (a binary burst);
/// - a `$` or `!` inside a sentence ends the one before (a collision: the line end was
///   lost) and starts a new one; the checksum decides whether the first half was whole;
/// - a candidate longer than ``maxLength`` bytes is abandoned (gpsd's limit, well above
///   the 82 characters the standard allows, because real receivers exceed it);
/// - a line whose first byte is `#` is a comment (recorded logs annotate themselves).
///
/// Everything that is not part of a candidate or a line end is counted in
/// ``skippedBytes``. The state carries over between chunks, so feeding a stream whole or
/// one byte at a time gives identical candidates.
public struct NMEAFramer: ~Copyable {
    /// Longest candidate accepted, in bytes from `$` to the end of the checksum.
    public static let maxLength = 130

    private enum State { case idle, sentence, comment }

    private var state = State.idle
    private var atLineStart = true
    private let buffer: UnsafeMutableBufferPointer<UInt8>
    /// 1 for bytes that continue a sentence (printable ASCII except `$` and `!`), else 0.
    private let ordinary: UnsafeMutableBufferPointer<UInt8>
    private var length = 0
    /// The candidate's first byte (`$` or `!`).
    private var first: UInt8 = 0
    /// Whether the candidate lies whole in the chunk being fed, from ``inPlaceStart``: it is then
    /// emitted from there, uncopied. It moves into the buffer when the chunk ends before it does
    /// or a dropped NUL splits it.
    private var inPlace = false
    private var inPlaceStart = 0

    /// Bytes that belonged to no candidate: garbage, binary data, comments, abandoned
    /// sentences (line ends and NULs not included).
    public private(set) var skippedBytes = 0
    /// Candidates abandoned for exceeding ``maxLength`` or for a control byte.
    public private(set) var abandoned = 0

    public init() {
        buffer = .allocate(capacity: Self.maxLength + 1)
        ordinary = .allocate(capacity: 256)
        for b in 0..<256 {
            ordinary[b] = b >= 0x20 && b <= 0x7E && b != 0x24 && b != 0x21 ? 1 : 0
        }
    }

    deinit {
        buffer.deallocate()
        ordinary.deallocate()
    }

    /// Scans `chunk`, calling `emit` with each complete candidate (valid only during the call).
    public mutating func feed(
        _ chunk: UnsafeRawBufferPointer, _ emit: (UnsafeBufferPointer<UInt8>) throws -> Void
    ) rethrows {
        var i = chunk.startIndex
        let end = chunk.endIndex
        while i < end {
            let b = chunk[i]
            i += 1
            switch state {
            case .idle:
                if b == ASCII.dollar || b == ASCII.bang {
                    start(b, at: i - 1)
                } else if b == ASCII.cr || b == ASCII.lf {
                    atLineStart = true
                } else if b == ASCII.hash && atLineStart {
                    state = .comment
                    skippedBytes += 1
                } else if b != ASCII.nul {
                    skippedBytes += 1
                    atLineStart = false
                }
            case .comment:
                if b == ASCII.lf || b == ASCII.cr {
                    state = .idle
                    atLineStart = true
                } else {
                    skippedBytes += 1
                }
            case .sentence:
                // Fast path: copy the run of ordinary sentence bytes in one go.
                let runStart = i - 1
                var j = runStart
                // Eight bytes at a time while none can be special (a control byte, `$`, `!`, non-ASCII);
                // a false alarm only hands the rest to the exact byte loop below.
                let base = chunk.baseAddress!
                while j + 8 <= end {
                    let w = (base + j).loadUnaligned(as: UInt64.self)
                    if Self.mayHoldSpecialByte(w) { break }
                    j += 8
                }
                while j < end && ordinary[Int(chunk[j])] != 0 { j += 1 }
                let run = j - runStart
                if run > 0 {
                    i = j
                    if length + run > Self.maxLength {
                        skippedBytes += run
                        abandon()
                        continue
                    }
                    if !inPlace {
                        UnsafeMutableRawPointer(buffer.baseAddress! + length)
                            .copyMemory(from: chunk.baseAddress! + runStart, byteCount: run)
                    }
                    length += run
                    continue
                }
                if b == ASCII.dollar || b == ASCII.bang {
                    if length == 1 && b == ASCII.dollar && first == ASCII.dollar {
                        inPlaceStart = runStart  // "$$": a doubled start marker; the second one starts it
                        continue
                    }
                    try emitCandidate(chunk, emit)
                    start(b, at: runStart)
                } else if b == ASCII.cr || b == ASCII.lf {
                    try emitCandidate(chunk, emit)
                    state = .idle
                    atLineStart = true
                } else if b != ASCII.nul {
                    abandon()
                    skippedBytes += 1
                } else if inPlace {
                    moveToBuffer(chunk)  // the NUL is dropped: what follows is not next to what came before
                }
            }
        }
        if state == .sentence && inPlace { moveToBuffer(chunk) }
    }

    /// Copies the in-place candidate into the buffer (the chunk is about to go, or is split).
    private mutating func moveToBuffer(_ chunk: UnsafeRawBufferPointer) {
        UnsafeMutableRawPointer(buffer.baseAddress!).copyMemory(
            from: chunk.baseAddress! + inPlaceStart, byteCount: length)
        inPlace = false
    }

    /// Whether any byte of `w` may be below 0x20, above 0x7E, `$` or `!` (never false when one is).
    @inline(__always)
    static func mayHoldSpecialByte(_ w: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let below20 = (w &- ones &* 0x20) & ~w & highs
        let above7E = ((w &+ ones) | w) & highs
        let d = w ^ (ones &* 0x24)
        let dollar = (d &- ones) & ~d & highs
        let b = w ^ (ones &* 0x21)
        let bang = (b &- ones) & ~b & highs
        return (below20 | above7E | dollar | bang) != 0
    }

    /// Ends the stream: a last candidate without a line end is emitted too.
    public mutating func finish(_ emit: (UnsafeBufferPointer<UInt8>) throws -> Void) rethrows {
        if state == .sentence {
            try emitCandidate(UnsafeRawBufferPointer(start: nil, count: 0), emit)  // never in place here
        }
        state = .idle
        atLineStart = true
    }

    /// Starts a candidate with `b`, found at `index` of the chunk being fed.
    private mutating func start(_ b: UInt8, at index: Int) {
        state = .sentence
        atLineStart = false
        buffer[0] = b
        first = b
        length = 1
        inPlace = true
        inPlaceStart = index
    }

    private mutating func abandon() {
        skippedBytes += length
        abandoned += 1
        length = 0
        inPlace = false
        state = .idle
        atLineStart = false
    }

    private mutating func emitCandidate(
        _ chunk: UnsafeRawBufferPointer, _ emit: (UnsafeBufferPointer<UInt8>) throws -> Void
    ) rethrows {
        let n = length
        length = 0
        defer { inPlace = false }
        if n <= 1 {
            skippedBytes += n
        } else if inPlace {
            try emit(
                UnsafeBufferPointer(
                    start: chunk.baseAddress!.assumingMemoryBound(to: UInt8.self) + inPlaceStart, count: n))
        } else {
            try emit(UnsafeBufferPointer(rebasing: buffer[0..<n]))
        }
    }
}

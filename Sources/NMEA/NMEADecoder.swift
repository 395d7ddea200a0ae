import GPSCore

/// Bytes in, dated fixes out: framer, sentence parser, fix assembler and date resolver
/// in one streaming unit. Feed chunks of any size; the output does not depend on them.
public final class NMEADecoder {
    private var framer = NMEAFramer()
    private let parser = SentenceParser()
    private var assembler = FixAssembler()
    private var resolver: DateResolver
    private var counts = DecodeStatistics()

    /// - Parameters:
    ///   - fallbackDate: the UTC date of the first epoch, used only when the log never carries
    ///     a date of its own.
    ///   - holdLimit: how many fixes may wait for the stream's first date before the fallback
    ///     date is used: unlimited for files (back-fill), a few for live sources.
    public init(fallbackDate: CivilDate? = nil, holdLimit: Int = .max) {
        resolver = DateResolver(fallbackDate: fallbackDate, holdLimit: holdLimit)
    }

    /// Counts so far.
    public var statistics: DecodeStatistics {
        var s = counts
        s.skippedBytes = framer.skippedBytes
        return s
    }

    /// Decodes `chunk`; `emit` receives each completed, dated fix in order.
    public func feed(_ chunk: UnsafeRawBufferPointer, _ emit: (Fix) throws -> Void) rethrows {
        try framer.feed(chunk) { candidate in try handle(candidate, emit) }
    }

    /// Reports the open epoch now instead of when the next one starts: a live source calls this
    /// when the receiver has been quiet for a while, so the last fix is not held back.
    public func flushOpenEpoch(_ emit: (Fix) throws -> Void) rethrows {
        if let open = assembler.finish() { try deliver(open, emit) }
    }

    /// Ends the stream: flushes the open epoch and any fixes waiting for a date.
    public func finish(_ emit: (Fix) throws -> Void) rethrows {
        try framer.finish { candidate in try handle(candidate, emit) }
        if let last = assembler.finish() { try deliver(last, emit) }
        if let dated = assembler.takeDate() {
            try resolver.observe(dated.date, at: dated.timeOfDay) { try count($0, emit) }
        }
        try resolver.finish { try count($0, emit) }
    }

    private func handle(_ candidate: UnsafeBufferPointer<UInt8>, _ emit: (Fix) throws -> Void) rethrows {
        counts.sentences += 1
        try parser.parse(candidate) { outcome in
            switch outcome {
            case .held:
                break
            case .decoded(let sentence):
                counts.decoded += 1
                try assembler.add(sentence) { try deliver($0, emit) }
                if let dated = assembler.takeDate() {
                    try resolver.observe(dated.date, at: dated.timeOfDay) { try count($0, emit) }
                }
            case .rejected(let error):
                switch error {
                case .badChecksum: counts.badChecksum += 1
                case .missingChecksum: counts.missingChecksum += 1
                case .unsupported:
                    counts.unknown += 1
                    counts.unsupported += 1
                case .badAddress: counts.unknown += 1
                case .tooFewFields, .badField: counts.malformed += 1
                }
            }
        }
    }

    private func deliver(_ fix: Fix, _ emit: (Fix) throws -> Void) rethrows {
        try resolver.push(fix) { try count($0, emit) }
    }

    private func count(_ fix: Fix, _ emit: (Fix) throws -> Void) rethrows {
        counts.epochs += 1
        if fix.hasPosition { counts.fixes += 1 }
        try emit(fix)
    }
}

/// A small streaming XML reader for the exchange formats (GPX, KML): elements, attributes, text,
/// comments, CDATA and processing instructions, with the five predefined entities and
/// character references.
///
/// It refuses document type declarations outright: GPX never needs one, and a DTD is where
/// entity bombs and external entities live. Memory is bounded: a single tag or text run longer
/// than ``maxTokenBytes`` and nesting deeper than ``maxDepth`` are errors, so a hostile file
/// cannot make it hold more than about one token at a time.
public final class XMLScanner {
    public enum Event: Equatable {
        /// An element opens, with its local name (namespace prefix dropped) and attributes.
        case start(name: String, attributes: [String: String], line: Int)
        /// An element closes (also sent for `<empty/>`).
        case end(name: String)
        /// Character data inside an element (whitespace-only runs are not sent).
        case text(String)
    }

    /// What is wrong with the document, and on which line (1-based).
    public struct Failure: Error, Equatable, CustomStringConvertible, Sendable {
        public var line: Int
        public var reason: String
        public var description: String { "line \(line): \(reason)" }
    }

    public static let maxTokenBytes = 1 << 20
    public static let maxDepth = 64

    private var pending: [UInt8] = []
    private var line = 1
    /// Open elements: local name and the line each opened on.
    private var open: [(name: String, line: Int)] = []
    private var sawRoot = false

    public init() {}

    /// Scans `bytes`, calling `handle` for each complete event.
    public func feed(_ bytes: UnsafeRawBufferPointer, _ handle: (Event) throws -> Void) throws {
        pending.append(contentsOf: bytes)
        let consumed = try scan(final: false, handle)
        pending.removeFirst(consumed)
    }

    /// Ends the document: anything left open means the file was cut short.
    public func finish(_ handle: (Event) throws -> Void) throws {
        let consumed = try scan(final: true, handle)
        pending.removeFirst(consumed)
        if let last = open.last {
            throw Failure(
                line: line,
                reason: "the file ends inside <\(last.name)> opened on line \(last.line) (it looks truncated)")
        }
        if !sawRoot { throw Failure(line: line, reason: "there is no XML element in it") }
    }

    private func fail(_ reason: String) -> Failure { Failure(line: line, reason: reason) }

    /// Scans complete tokens from `pending`; returns how many bytes were used.
    private func scan(final: Bool, _ handle: (Event) throws -> Void) throws -> Int {
        var i = 0
        let n = pending.count
        return try pending.withUnsafeBufferPointer { b -> Int in
            func find(_ needle: [UInt8], from start: Int) -> Int? {
                var j = start
                let last = n - needle.count
                while j <= last {
                    if b[j] == needle[0] {
                        var k = 1
                        while k < needle.count && b[j + k] == needle[k] { k += 1 }
                        if k == needle.count { return j }
                    }
                    j += 1
                }
                return nil
            }
            func countLines(_ from: Int, _ to: Int) {
                for j in from..<to where b[j] == 10 { line += 1 }
            }
            func starts(_ text: [UInt8], at j: Int) -> Bool? {
                if j + text.count > n { return final ? false : nil }
                for k in 0..<text.count where b[j + k] != text[k] { return false }
                return true
            }
            while i < n {
                if b[i] != 60 {  // character data up to the next '<'
                    var j = i
                    while j < n && b[j] != 60 { j += 1 }
                    if j == n && !final {
                        if j - i > Self.maxTokenBytes { throw fail("a run of text is longer than 1 MB") }
                        return i
                    }
                    let raw = UnsafeBufferPointer(rebasing: b[i..<j])
                    let blank = raw.allSatisfy { $0 == 32 || $0 == 9 || $0 == 10 || $0 == 13 }
                    if !blank {
                        guard !open.isEmpty else {
                            throw fail(
                                sawRoot
                                    ? "there is text after the root element" : "it does not start with an XML element")
                        }
                        try handle(.text(try decode(raw)))
                    }
                    countLines(i, j)
                    i = j
                    continue
                }
                // A markup token starting at i.
                let tokenLine = line
                var end: Int?  // index just past the token
                var kind = 0  // 0 element, 1 comment, 2 CDATA, 3 PI, 4 end tag
                if let isComment = starts(Array("<!--".utf8), at: i), isComment {
                    kind = 1
                    end = find(Array("-->".utf8), from: i + 4).map { $0 + 3 }
                } else if let isCDATA = starts(Array("<![CDATA[".utf8), at: i), isCDATA {
                    kind = 2
                    end = find(Array("]]>".utf8), from: i + 9).map { $0 + 3 }
                } else if i + 1 < n && b[i + 1] == 33 {  // <! anything else: a DTD
                    if starts(Array("<!--".utf8), at: i) == nil || starts(Array("<![CDATA[".utf8), at: i) == nil {
                        return i  // wait for more bytes to tell
                    }
                    throw fail(
                        "it contains a document type declaration (<!DOCTYPE ...>), which Trailbook refuses to read "
                            + "because it can define entity expansions or external entities")
                } else if i + 1 < n && b[i + 1] == 63 {  // <?
                    kind = 3
                    end = find(Array("?>".utf8), from: i + 2).map { $0 + 2 }
                } else if i + 1 < n {
                    kind = b[i + 1] == 47 ? 4 : 0
                    var j = i + 1
                    var quote: UInt8 = 0
                    while j < n {
                        let c = b[j]
                        if quote != 0 {
                            if c == quote { quote = 0 }
                        } else if c == 34 || c == 39 {
                            quote = c
                        } else if c == 62 {
                            break
                        } else if c == 60 {
                            throw fail("a '<' appears inside a tag")
                        }
                        j += 1
                    }
                    if j < n { end = j + 1 }
                }
                guard let end else {
                    if final { throw fail("the file ends inside a tag (it looks truncated)") }
                    if n - i > Self.maxTokenBytes { throw fail("a tag is longer than 1 MB") }
                    return i
                }
                countLines(i, end)
                switch kind {
                case 0: try startTag(UnsafeBufferPointer(rebasing: b[(i + 1)..<(end - 1)]), line: tokenLine, handle)
                case 4: try endTag(UnsafeBufferPointer(rebasing: b[(i + 2)..<(end - 1)]), line: tokenLine, handle)
                case 2:
                    guard !open.isEmpty else {
                        throw Failure(line: tokenLine, reason: "CDATA outside the root element")
                    }
                    try handle(
                        .text(String(decoding: UnsafeBufferPointer(rebasing: b[(i + 9)..<(end - 3)]), as: UTF8.self)))
                default: break  // comments and processing instructions carry nothing we read
                }
                i = end
            }
            return i
        }
    }

    private static func isNameByte(_ c: UInt8) -> Bool {
        c >= 128 || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c == 95 || c == 45
            || c == 46 || c == 58
    }

    private static func isSpace(_ c: UInt8) -> Bool { c == 32 || c == 9 || c == 10 || c == 13 }

    /// The local part of a qualified name.
    private static func localName(_ raw: UnsafeBufferPointer<UInt8>) -> String {
        let name = String(decoding: raw, as: UTF8.self)
        if let colon = name.lastIndex(of: ":") { return String(name[name.index(after: colon)...]) }
        return name
    }

    private func startTag(
        _ t: UnsafeBufferPointer<UInt8>, line tokenLine: Int, _ handle: (Event) throws -> Void
    ) throws {
        var j = 0
        while j < t.count && Self.isNameByte(t[j]) { j += 1 }
        guard j > 0 else { throw Failure(line: tokenLine, reason: "a tag without a name") }
        let name = Self.localName(UnsafeBufferPointer(rebasing: t[0..<j]))
        var attributes: [String: String] = [:]
        var selfClosing = false
        while j < t.count {
            if Self.isSpace(t[j]) {
                j += 1
                continue
            }
            if t[j] == 47 && j == t.count - 1 {
                selfClosing = true
                break
            }
            let nameStart = j
            while j < t.count && Self.isNameByte(t[j]) { j += 1 }
            guard j > nameStart else { throw Failure(line: tokenLine, reason: "a malformed attribute in <\(name)>") }
            let key = Self.localName(UnsafeBufferPointer(rebasing: t[nameStart..<j]))
            while j < t.count && Self.isSpace(t[j]) { j += 1 }
            guard j < t.count, t[j] == 61 else {
                throw Failure(line: tokenLine, reason: "attribute \(key) of <\(name)> has no value")
            }
            j += 1
            while j < t.count && Self.isSpace(t[j]) { j += 1 }
            guard j < t.count, t[j] == 34 || t[j] == 39 else {
                throw Failure(line: tokenLine, reason: "the value of attribute \(key) of <\(name)> is not quoted")
            }
            let quote = t[j]
            j += 1
            let valueStart = j
            while j < t.count && t[j] != quote { j += 1 }
            guard j < t.count else {
                throw Failure(line: tokenLine, reason: "the value of attribute \(key) of <\(name)> is not closed")
            }
            do {
                attributes[key] = try decode(UnsafeBufferPointer(rebasing: t[valueStart..<j]))
            } catch let failure as Failure {
                throw Failure(line: tokenLine, reason: failure.reason)
            }
            j += 1
        }
        if open.isEmpty && sawRoot { throw Failure(line: tokenLine, reason: "a second root element <\(name)>") }
        guard open.count < Self.maxDepth else {
            throw Failure(line: tokenLine, reason: "elements are nested more than \(Self.maxDepth) deep")
        }
        sawRoot = true
        try handle(.start(name: name, attributes: attributes, line: tokenLine))
        if selfClosing {
            try handle(.end(name: name))
        } else {
            open.append((name, tokenLine))
        }
    }

    private func endTag(_ t: UnsafeBufferPointer<UInt8>, line tokenLine: Int, _ handle: (Event) throws -> Void) throws {
        var j = 0
        while j < t.count && Self.isNameByte(t[j]) { j += 1 }
        let name = Self.localName(UnsafeBufferPointer(rebasing: t[0..<j]))
        guard let top = open.last else {
            throw Failure(line: tokenLine, reason: "</\(name)> closes an element that is not open")
        }
        guard top.name == name else {
            throw Failure(line: tokenLine, reason: "</\(name)> closes <\(top.name)> opened on line \(top.line)")
        }
        open.removeLast()
        try handle(.end(name: name))
    }

    /// Character data with entity and character references replaced.
    private func decode(_ raw: UnsafeBufferPointer<UInt8>) throws -> String {
        guard raw.contains(38) else { return String(decoding: raw, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var j = 0
        while j < raw.count {
            guard raw[j] == 38 else {
                out.append(raw[j])
                j += 1
                continue
            }
            var k = j + 1
            while k < raw.count && raw[k] != 59 && k - j < 12 { k += 1 }
            guard k < raw.count, raw[k] == 59 else { throw fail("an '&' that does not start an entity (write &amp;)") }
            let entity = String(decoding: UnsafeBufferPointer(rebasing: raw[(j + 1)..<k]), as: UTF8.self)
            switch entity {
            case "lt": out.append(60)
            case "gt": out.append(62)
            case "amp": out.append(38)
            case "quot": out.append(34)
            case "apos": out.append(39)
            default:
                var scalar: Unicode.Scalar?
                if entity.hasPrefix("#x") || entity.hasPrefix("#X") {
                    scalar = UInt32(entity.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
                } else if entity.hasPrefix("#") {
                    scalar = UInt32(entity.dropFirst(), radix: 10).flatMap(Unicode.Scalar.init)
                }
                guard let scalar else { throw fail("unknown entity &\(entity); (only the five XML ones are defined)") }
                out.append(contentsOf: Array(String(Character(scalar)).utf8))
            }
            j = k + 1
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// An ``XMLScanner`` for a document in UTF-8 (with or without a byte-order mark) or UTF-16
/// either way round, converted to UTF-8 as it comes: what the GPX and KML readers share.
public final class EncodedXMLScanner {
    private let scanner = XMLScanner()
    private var encoding = TextEncoding()

    public init() {}

    /// Whether `prefix` (the first bytes of a file) looks like XML whose text has `<NAME` in it.
    public static func looksLike(_ prefix: UnsafeRawBufferPointer, element name: String) -> Bool {
        let head = String(
            decoding: TextEncoding.utf8Prefix(UnsafeRawBufferPointer(rebasing: prefix.prefix(4096))), as: UTF8.self)
        let trimmed = head.drop { $0 == "\u{FEFF}" || $0.isWhitespace }
        return trimmed.hasPrefix("<") && head.contains("<" + name)
    }

    /// Scans `bytes`, calling `handle` for each complete event.
    public func feed(_ bytes: UnsafeRawBufferPointer, _ handle: (XMLScanner.Event) throws -> Void) throws {
        if encoding.kind == .utf8 {
            try scanner.feed(bytes, handle)
        } else {
            try encoding.convert(bytes).withUnsafeBytes { try scanner.feed($0, handle) }
        }
    }

    /// Ends the document (see ``XMLScanner/finish(_:)``).
    public func finish(_ handle: (XMLScanner.Event) throws -> Void) throws {
        try encoding.finish().withUnsafeBytes { try scanner.feed($0, handle) }
        try scanner.finish(handle)
    }
}

/// Checks where keys and values stand in a TOML text before TOMLKit reads it.
///
/// toml++ (inside TOMLKit) asserts, and so aborts the process, when a table header or a key
/// starts with a character no key can start with (`[= x]`, `a. = 1`, `{ = 1 }`), or a value
/// with a character that ends values (`x = ]`, `[}`, `[1, ,2]`): `make fuzz` found both. This scan knows just enough TOML (strings of all four kinds, comments, arrays and
/// inline tables, dotted and quoted keys) to find such a place first and report its line, so a
/// bad config file gets a sentence, never a crash.
enum TOMLKeyCheck {
    static func isBare(_ c: Character) -> Bool {
        c.isASCII && (c.isLetter || c.isNumber || c == "_" || c == "-")
    }

    /// The first line where a key is malformed, with what is wrong; nil when keys look fine.
    static func problem(in text: String) -> (line: Int, problem: String)? {
        let chars = Array(text)
        var i = 0
        var line = 1
        /// Open `[` and `{` of the value being read; `{` means keys come next.
        var stack: [Character] = []
        var expectKey = true  // at the start of a line outside values, or after `{` / `,` in an inline table
        var expectValue = false  // after `=`, or after `[` / `,` in an array

        func skipSpaces() {
            while i < chars.count, chars[i] == " " || chars[i] == "\t" { i += 1 }
        }
        func skipString() -> Bool {  // at a quote; false when the text ends inside it
            let quote = chars[i]
            let triple = i + 2 < chars.count && chars[i + 1] == quote && chars[i + 2] == quote
            i += triple ? 3 : 1
            while i < chars.count {
                let c = chars[i]
                if c == "\n" || c == "\r\n" {
                    if !triple { return true }  // an unclosed one-line string: TOMLKit reports it
                    line += 1
                } else if c == "\\" && quote == "\"" {
                    i += 1
                } else if c == quote {
                    if !triple {
                        i += 1
                        return true
                    }
                    if i + 2 < chars.count && chars[i + 1] == quote && chars[i + 2] == quote {
                        i += 3
                        return true
                    }
                }
                i += 1
            }
            return false
        }
        /// Reads a key (bare or quoted parts joined by dots); nil when it is well formed.
        func key() -> String? {
            while true {
                skipSpaces()
                guard i < chars.count else { return "the file ends where a key should be" }
                let c = chars[i]
                if c == "\"" || c == "'" {
                    if !skipString() { return "a quoted key is not closed" }
                } else if isBare(c) {
                    while i < chars.count, isBare(chars[i]) { i += 1 }
                } else {
                    return "a key cannot start with \"\(c)\""
                }
                skipSpaces()
                guard i < chars.count, chars[i] == "." else { return nil }
                i += 1
            }
        }

        while i < chars.count {
            let c = chars[i]
            if c == "\n" || c == "\r\n" {
                line += 1
                i += 1
                if stack.isEmpty { expectKey = true }
                continue
            }
            if c == " " || c == "\t" || c == "\r" {
                i += 1
                continue
            }
            if c == "#" {
                if expectValue && stack.last != "[" { return (line, "a value is missing before the comment") }
                while i < chars.count, chars[i] != "\n", chars[i] != "\r\n" { i += 1 }
                continue
            }
            if expectValue {
                // A value may not start with what ends values; in an array `]` closes it instead.
                if c == "]" && stack.last == "[" {
                    expectValue = false
                } else if c == "]" || c == "}" || c == "," || c == "=" {
                    return (line, "a value is missing before \"\(c)\"")
                }
                expectValue = false
            }
            if expectKey && stack.isEmpty && c == "[" {
                // A table header: [key] or [[key]].
                i += 1
                if i < chars.count && chars[i] == "[" { i += 1 }
                if let problem = key() { return (line, "in a [table] header, " + problem) }
                expectKey = false
                continue
            }
            if expectKey {
                if c == "}" && stack.last == "{" {
                    stack.removeLast()
                    i += 1
                    expectKey = false
                    continue
                }
                if let problem = key() { return (line, problem) }
                expectKey = false
                skipSpaces()
                if i < chars.count, chars[i] == "=" {
                    i += 1
                    skipSpaces()
                    if i >= chars.count || chars[i] == "\n" || chars[i] == "\r\n" {
                        return (line, "a value is missing after \"=\"")
                    }
                    expectValue = true
                }
                continue
            }
            switch c {
            case "\"", "'":
                if !skipString() { return nil }
                continue
            case "[", "{":
                stack.append(c)
                if c == "{" { expectKey = true } else { expectValue = true }
            case "]", "}":
                if !stack.isEmpty { stack.removeLast() }
            case ",":
                if stack.last == "{" { expectKey = true } else if stack.last == "[" { expectValue = true }
            default:
                break
            }
            i += 1
        }
        return nil
    }
}

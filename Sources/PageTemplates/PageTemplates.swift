import Mustache

/// The one template layer of every HTML page Trailbook writes, the reports' and the server's:
/// Mustache templates (swift-mustache), whose `{{name}}` escapes HTML. The unescaped forms
/// (`{{{name}}}`, `{{& name}}`) are refused when the templates are made, so no text reaches a
/// page unescaped; markup comes only from the templates themselves.
public struct PageTemplates: Sendable {
    private let library: MustacheLibrary

    /// The templates by name; each may include the others as partials (`{{> name}}`). They are
    /// part of the program: one that does not parse, or that would write text unescaped, is a
    /// programming error.
    public init(_ templates: [(name: String, text: String)]) {
        var library = MustacheLibrary()
        for (name, text) in templates {
            precondition(
                !text.contains("{{{") && !text.contains("{{&"), "template \(name) writes text unescaped")
            try! library.register(MustacheTemplate(string: text), named: name)
        }
        self.library = library
    }

    /// The template `name` filled from `context` (dictionaries, arrays, strings, numbers, Bools).
    /// Control characters in its strings (an escape sequence pasted into a note) are left out:
    /// HTML has no place for them.
    public func render(_ name: String, _ context: Any) -> String {
        library.render(Self.clean(context), withTemplate: name) ?? ""
    }

    /// The template `name` filled from a page's view model: its coding keys name what the template
    /// reads (``TemplateEncoder``), cleaned as ``render(_:_:)`` cleans a context.
    public func render(_ name: String, model: some Encodable) -> String {
        // A view model is the program's own and encodes no failure: one that throws is a bug.
        let tree: Any
        do { tree = try TemplateEncoder.encode(model) } catch { preconditionFailure("view model of \(name): \(error)") }
        return library.render(Self.clean(tree), withTemplate: name) ?? ""
    }

    /// `value` with the control characters of its strings removed (tab, line feed and carriage
    /// return stay), through dictionaries and arrays; an Optional is unwrapped and a nil one left
    /// out (a template would show it as the word "nil").
    static func clean(_ value: Any) -> Any {
        switch value {
        case let text as String:
            guard text.unicodeScalars.contains(where: isControl) else { return text }
            var out = String.UnicodeScalarView()
            out.append(contentsOf: text.unicodeScalars.filter { !isControl($0) })
            return String(out)
        case let strings as [String]: return strings.map { clean($0) }
        case let dictionary as [String: Any]: return dictionary.compactMapValues { unwrapped($0).map(clean) }
        case let array as [Any]: return array.compactMap { unwrapped($0).map(clean) }
        // A cast unwraps an Optional that holds one (`.some(3)` as Int is 3).
        case let n as Int: return n
        case let n as Int64: return n
        case let n as Double: return n
        case let b as Bool: return b
        // A view model inside a context (a page moving to models one part at a time).
        case let model as any Encodable:
            guard let tree = try? TemplateEncoder.encode(model) else { return "" }
            return clean(tree)
        default:
            guard Mirror(reflecting: value).displayStyle == .optional else { return value }
            return unwrapped(value).map(clean) ?? ""
        }
    }

    /// The value inside `value` when it is an Optional (nil when it is nil), `value` otherwise.
    static func unwrapped(_ value: Any) -> Any? {
        if value is String || value is Int || value is Bool || value is [String: Any] { return value }
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return value }
        return mirror.children.first.flatMap { unwrapped($0.value) }
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value < 0x20 && scalar != "\t" && scalar != "\n" && scalar != "\r")
            || (0x7F...0x9F).contains(scalar.value)
    }
}

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

    /// The template `name` filled from a page's view model: its coding keys name what the template
    /// reads (``TemplateEncoder``). Control characters in its strings (an escape sequence pasted
    /// into a note) are left out: HTML has no place for them.
    public func render(_ name: String, model: some Encodable) -> String {
        // A view model is the program's own and encodes no failure: one that throws is a bug.
        let tree: Any
        do { tree = try TemplateEncoder.encode(model) } catch { preconditionFailure("view model of \(name): \(error)") }
        return library.render(Self.clean(tree), withTemplate: name) ?? ""
    }

    /// A view model's tree (``TemplateEncoder``) with the control characters of its strings
    /// removed (tab, line feed and carriage return stay), through dictionaries and arrays.
    static func clean(_ value: Any) -> Any {
        switch value {
        case let text as String:
            guard text.unicodeScalars.contains(where: isControl) else { return text }
            var out = String.UnicodeScalarView()
            out.append(contentsOf: text.unicodeScalars.filter { !isControl($0) })
            return String(out)
        case let dictionary as [String: Any]: return dictionary.mapValues(clean)
        case let array as [Any]: return array.map(clean)
        default: return value
        }
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value < 0x20 && scalar != "\t" && scalar != "\n" && scalar != "\r")
            || (0x7F...0x9F).contains(scalar.value)
    }
}

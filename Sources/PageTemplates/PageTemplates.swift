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
    public func render(_ name: String, _ context: Any) -> String {
        library.render(context, withTemplate: name) ?? ""
    }
}

import Testing

@testable import PageTemplates

/// A page's view model fills its template by its coding keys: nested models and lists as
/// sections, a nil optional as a skipped section, strings escaped and cleaned of control
/// characters as a dictionary's are.
@Suite struct PageTemplatesTests {
    struct Page: Encodable {
        struct Row: Encodable {
            let name: String
            let count: Int
            let on: Bool
        }
        let title: String
        let rows: [Row]
        let note: String?
        let warning: String?
        let tags: [String]
        let size: Double
        let id: Int64
    }

    @Test func aViewModelFillsItsTemplateByItsKeys() {
        let templates = PageTemplates([
            (
                "page",
                "<h1>{{title}}</h1>{{#rows}}<p>{{name}} {{count}}{{#on}} on{{/on}}</p>{{/rows}}"
                    + "{{#note}}<i>{{.}}</i>{{/note}}{{^warning}}[no warning]{{/warning}}"
                    + "{{#tags}}<b>{{.}}</b>{{/tags}} {{size}} {{id}}"
            )
        ])
        let page = Page(
            title: "A & B\u{1B}[31m",
            rows: [.init(name: "<one>", count: 2, on: true), .init(name: "two", count: 0, on: false)],
            note: "kept", warning: nil, tags: ["x", "y"], size: 1.5, id: 1_781_418_600_000)
        #expect(
            templates.render("page", model: page)
                == "<h1>A &amp; B[31m</h1><p>&lt;one&gt; 2 on</p><p>two 0</p><i>kept</i>[no warning]<b>x</b><b>y</b> 1.5 1781418600000"
        )
        let tree = try? TemplateEncoder.encode(page) as? [String: Any]
        #expect(tree?["warning"] == nil && tree?["note"] as? String == "kept", "a nil optional leaves its key out")
        #expect((tree?["rows"] as? [[String: Any]])?.first?["on"] as? Bool == true)
    }
}

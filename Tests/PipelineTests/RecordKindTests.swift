import Foundation
import Pipeline
import Testing

/// Record kinds from the config: units compared in SI, each rule refusing with its sentence,
/// bad declarations named by file, line and key.
@Suite struct RecordKindTests {
    static let text = """
        [kinds.catch]
        species = { type = "choice", values = ["pike", "perch", "trout", "carp"], required = true }
        weight  = { type = "mass", min = "0 kg", max = "100 kg" }
        length  = { type = "length", min = "0 cm" }
        bait    = { type = "text" }
        released = { type = "bool" }
        water   = { type = "temperature", min = "0 °C", max = "40 °C" }
        depth   = { type = "number", unit = "m", min = 0 }
        caught  = { type = "date-time" }
        """

    @Test func quantitiesAreKeptAsEnteredAndComparedInSI() throws {
        let lb = try #require(Quantity("5.5lb"))
        #expect(lb.value == 5.5 && lb.unit == "lb" && lb.dimension == .mass)
        #expect(abs(lb.si - 2.494758) < 1e-6)
        #expect(abs(Quantity("70 cm")!.si - 0.7) < 1e-12 && Quantity("3")?.unit == "")
        #expect(abs(Quantity("12 °C")!.si - 285.15) < 1e-9)
        #expect(abs(Quantity("32F")!.si - 273.15) < 1e-9, "freezing in Fahrenheit is 273.15 K")
        #expect(Quantity("2e3 g")?.si == 2, "an exponent")
        #expect(Quantity("heavy") == nil && Quantity("") == nil)
    }

    @Test func eachRuleRefusesWithItsSentence() throws {
        let kind = try #require(try TrailbookConfig.load(text: Self.text, file: "k.toml").kinds["catch"])
        #expect(
            kind.fields.map(\.name) == ["bait", "caught", "depth", "length", "released", "species", "water", "weight"])
        func problem(_ fields: [(String, String)]) -> String? { kind.problem(fields.map { ($0.0, $0.1) }) }
        #expect(problem([("species", "pike"), ("weight", "5.5lb"), ("water", "55F"), ("depth", "3 m")]) == nil)
        #expect(problem([("species", "pike"), ("caught", "2026-06-14T06:40:00Z"), ("released", "no")]) == nil)
        #expect(problem([("weight", "2 kg")]) == "Field species is required for a catch; give species=VALUE.")
        #expect(problem([("species", "salmon")])?.contains("\"salmon\" is not one of pike, perch, trout, carp") == true)
        #expect(problem([("species", "pike"), ("weight", "101kg")])?.contains("above the maximum 100 kg") == true)
        #expect(problem([("species", "pike"), ("weight", "250 lb")])?.contains("above the maximum") == true, "in SI")
        #expect(problem([("species", "pike"), ("weight", "30 cm")])?.contains("is not a unit of mass") == true)
        #expect(problem([("species", "pike"), ("weight", "3")])?.contains("has no unit") == true)
        #expect(problem([("species", "pike"), ("water", "45 °C")])?.contains("above the maximum 40 °C") == true)
        #expect(problem([("species", "pike"), ("depth", "3 ft")])?.contains("is not its unit, m") == true)
        #expect(problem([("species", "pike"), ("released", "maybe")])?.contains("not true or false") == true)
        #expect(problem([("species", "pike"), ("caught", "yesterday")])?.contains("ISO 8601") == true)
        #expect(problem([("species", "pike"), ("colour", "red")])?.hasPrefix("A catch has no field colour") == true)
        #expect(kind.field("weight")!.sortValue("5.5lb")! < kind.field("weight")!.sortValue("3kg")!)
    }

    @Test(arguments: [
        ("[kinds.catch]\nweight = { type = \"mass\", min = \"0 cm\" }\n", 2, "kinds.catch.weight", "is not a mass"),
        ("[kinds.catch]\nspecies = { type = \"choice\" }\n", 2, "kinds.catch.species", "needs values"),
        ("[kinds.catch]\n\nx = { type = \"colour\" }\n", 3, "kinds.catch.x", "needs type = one of"),
        ("[kinds.catch]\nx = { type = \"text\", maximum = 3 }\n", 2, "kinds.catch.x", "unknown rule \"maximum\""),
        ("[kinds.catch]\nx = \"text\"\n", 2, "kinds.catch.x", "must be an inline table"),
        ("[kinds.catch]\nx = { type = \"text\", values = [\"a\"] }\n", 2, "kinds.catch.x", "values go with"),
    ])
    func badDeclarationsNameFileLineAndKey(text: String, line: Int, key: String, words: String) {
        #expect {
            try TrailbookConfig.load(text: text, file: "k.toml")
        } throws: { error in
            guard let e = error as? ConfigError else { return false }
            return e.file == "k.toml" && e.line == line && e.key == key && e.problem.contains(words)
        }
    }
}

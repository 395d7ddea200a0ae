import Foundation
import TrackModel

/// A record's conditions in one line of words: `dawn (sun −3.2°), last quarter moon 45 % lit,
/// solunar major, 1009.5 hPa falling, 12.0 °C`.
public enum ConditionsWords {
    public static func line(_ values: [ConditionValue]) -> String? {
        var byKey: [String: FieldValue] = [:]
        for v in values { byKey[v.key] = v.value }
        func number(_ key: String) -> Double? {
            if case .number(let n) = byKey[key] { return n }
            return nil
        }
        func text(_ key: String) -> String? { byKey[key].map(\.description) }
        var parts: [String] = []
        if let phase = text("sun.phase") {
            parts.append(phase + (number("sun.elevation_deg").map { String(format: " (sun %.1f°)", $0) } ?? ""))
        }
        if let moon = text("moon.phase_name") {
            let lit = number("moon.illumination").map { " \(Int(($0 * 100).rounded())) % lit" } ?? ""
            parts.append(moon + (moon.hasSuffix("moon") ? "" : " moon") + lit)
        }
        if let solunar = text("solunar.period"), solunar != "none" { parts.append("solunar " + solunar) }
        if let pressure = number("weather.pressure_hpa") {
            parts.append(String(format: "%.1f hPa", pressure) + (text("weather.pressure_trend").map { " " + $0 } ?? ""))
        }
        if let temperature = number("weather.temperature_c") { parts.append(String(format: "%.1f °C", temperature)) }
        if let wind = number("weather.wind_speed_ms") {
            parts.append(String(format: "wind %.1f m/s", wind) + (text("weather.wind_octant").map { " " + $0 } ?? ""))
        }
        if let tide = text("tide.state") { parts.append("tide " + tide) }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }
}

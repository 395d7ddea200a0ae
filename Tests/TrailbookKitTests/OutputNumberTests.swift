import Foundation
import GPSCore
import Testing

@testable import TrailbookKit

/// The hand-written number formatting behind every CSV and JSON row, against Swift's own.
@Suite struct OutputNumberTests {
    private func formatted(_ body: (inout OutputBuffer) -> Void) -> String {
        var out = OutputBuffer(capacity: 8)
        body(&out)
        return out.text
    }

    private func padded(_ value: UInt64, _ minDigits: Int) -> String {
        let s = String(value)
        return String(repeating: "0", count: max(0, minDigits - s.count)) + s
    }

    @Test func unsignedIntegersAtEveryDigitBoundary() {
        var values: [UInt64] = [0, 1, 9, 10, 11, 99, 100, 101, 999, 1000, 12_345, .max, .max - 1]
        var p: UInt64 = 1
        for _ in 0..<19 {
            p *= 10
            values += [p - 1, p, p + 1]
        }
        for v in values {
            for minDigits in [1, 2, 3, 4, 9, 20] {
                #expect(
                    formatted { $0.append(unsigned: v, minDigits: minDigits) } == padded(v, minDigits),
                    "\(v) with at least \(minDigits) digits")
            }
        }
        for v in values { #expect(OutputBuffer.decimalDigitCount(v) == String(v).count, "digits of \(v)") }
    }

    @Test func decimalsAndTimes() {
        #expect(formatted { $0.append(-12.5, decimals: 3) } == "-12.500")
        #expect(formatted { $0.append(47.3769, decimals: 9) } == "47.376900000")
        #expect(formatted { $0.append(0.004, decimals: 2) } == "0.00")
        #expect(formatted { $0.append(int: -1_234_567) } == "-1234567")
        #expect(formatted { $0.append(int: Int.min) } == String(Int.min))
        #expect(
            formatted {
                $0.append(date: .init(year: 2026, month: 6, day: 4), timeOfDay: 23 * 3_600_000 + 5 * 60_000 + 7_089)
            }
                == "2026-06-04T23:05:07.089Z")
        #expect(formatted { $0.append(date: nil, timeOfDay: 86_400_500) } == "23:59:60.500")
    }

    /// Rounding without the libm call gives what `(value × 10^d).rounded()` gave (half away from
    /// zero; a value that rounds to zero has no minus sign), over a million values of every size.
    @Test func roundingMatchesTheLibraryRounding() {
        func reference(_ value: Double, _ decimals: Int) -> String {
            var unit: UInt64 = 1
            for _ in 0..<decimals { unit *= 10 }
            var scaled = (value * Double(unit)).rounded()
            var sign = ""
            if scaled < 0 {
                sign = "-"
                scaled = -scaled
            }
            let whole = UInt64(scaled)
            let fraction = String(whole % unit)
            return sign + String(whole / unit)
                + (decimals > 0 ? "." + String(repeating: "0", count: decimals - fraction.count) + fraction : "")
        }
        var generator = SystemRandomNumberGenerator()
        var checked = 0
        for decimals in 0...9 {
            for _ in 0..<100_000 {
                let magnitude = Double.random(in: -12...9, using: &generator)
                var value = Double.random(in: -1...1, using: &generator) * Double.pow10(magnitude)
                if checked % 7 == 0 { value = (value * 1000).rounded() / 1000 + 0.0005 }  // ties
                checked += 1
                let ours = formatted { $0.append(value, decimals: decimals) }
                if ours != reference(value, decimals) {
                    Issue.record("\(value) with \(decimals) decimals: \(ours), not \(reference(value, decimals))")
                    return
                }
            }
        }
        #expect(checked == 1_000_000)
        #expect(formatted { $0.append(-0.0003, decimals: 3) } == "0.000")
        #expect(formatted { $0.append(-0.0005, decimals: 3) } == "-0.001")
    }
}

extension Double {
    fileprivate static func pow10(_ x: Double) -> Double { Foundation.pow(10, x) }
}

import Foundation
import Pipeline
import Testing

/// `[alerts]` and the zone alerts use: the config's `time.zone`, not the process's.
@Suite struct AlertSettingsTests {
    @Test func alertsTakeTheConfiguredZoneAndKeys() throws {
        let config = try TrailbookConfig.load(
            text: "[time]\nzone = \"Asia/Tokyo\"\n[alerts]\nretry_max = 20\n", file: "a.toml")
        #expect(config.pipeline.alerts.zone.identifier == "Asia/Tokyo")
        #expect(config.pipeline.alerts.retryMax == 20)
        #expect(config.pipeline.alerts.retryDelay(afterAttempts: 1) == 1)
        #expect(config.pipeline.alerts.retryDelay(afterAttempts: 4) == 8)
        #expect(config.pipeline.alerts.retryDelay(afterAttempts: 9) == 20, "capped at retry_max")
    }
}

/// `[visits]`: the keys reach the detector's rules, are checked, and `config show` prints them.
@Suite struct VisitSettingsTests {
    @Test func visitKeysAreReadCheckedAndShown() throws {
        let config = try TrailbookConfig.load(
            text: "[visits]\nradius = 60\nmin_duration = 600\nmax_gap = 0\nplace_radius = 90\n", file: "v.toml")
        #expect(config.pipeline.visits.radius == 60 && config.pipeline.visits.minDuration == 600)
        #expect(config.pipeline.visits.maxGap == 0 && config.pipeline.visits.placeRadius == 90)
        #expect(config.pipeline.visits.maxAccuracy == 250, "the default stays")
        #expect(config.rendered.contains("[visits]") && config.rendered.contains("radius = 60"))
        #expect(throws: ConfigError.self) {
            try TrailbookConfig.load(text: "[visits]\nradius = 0\n", file: "bad.toml")
        }
        #expect(throws: ConfigError.self) {
            try TrailbookConfig.load(text: "[visits]\nradius_m = 50\n", file: "bad.toml")
        }
        // Street names: the user's own Nominatim or Photon, nothing by default.
        #expect(config.streetNames == nil && config.rendered.contains("street_names = \"\""))
        let photon = try TrailbookConfig.load(
            text: "[visits]\nstreet_names = \"photon:http://localhost:2322/reverse\"\n", file: "p.toml")
        #expect(photon.streetNames == "photon:http://localhost:2322/reverse")
        for bad in ["google:http://x/reverse", "nominatim:localhost", "photon:ftp://x/reverse"] {
            #expect(throws: ConfigError.self, "\(bad)") {
                try TrailbookConfig.load(text: "[visits]\nstreet_names = \"\(bad)\"\n", file: "bad.toml")
            }
        }
    }
}

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

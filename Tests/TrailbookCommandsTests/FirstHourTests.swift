import Foundation
import Testing
import TrailbookTestSupport

/// What a new user tripped over on the first walk through the README (the first-hour issue,
/// second pass).
@Suite struct FirstHourTests {
    /// `$HOME` decides where the store and the config are, as for every Unix tool (not the home
    /// of the account in the password database); empty XDG variables count as unset.
    @Test func theStoreAndTheConfigFollowHOME() throws {
        let home = try Samples.temporaryDirectory()
        let environment = [
            "HOME": home, "XDG_DATA_HOME": "", "XDG_CONFIG_HOME": "", "XDG_CACHE_HOME": "", "TRAILBOOK_STORE": "",
        ]
        try FileManager.default.createDirectory(
            atPath: home + "/.config/trailbook", withIntermediateDirectories: true)
        try "[time]\nzone = \"Asia/Tokyo\"\n".write(
            toFile: home + "/.config/trailbook/config.toml", atomically: true, encoding: .utf8)
        let shown = try run(["config", "show"], environment: environment)
        #expect(shown.status == 0 && shown.stdout.contains("zone = \"Asia/Tokyo\""), "\(shown)")
        let missing = try run(["rides"], environment: environment)
        #expect(missing.status == 66 && missing.stderr.contains(home + "/.local/share/trailbook/trailbook.sqlite"))
        let imported = try run(["import", "Samples/ride.nmea"], environment: environment)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(FileManager.default.fileExists(atPath: home + "/.local/share/trailbook/trailbook.sqlite"))
        let rides = try run(["rides", "--json"], environment: environment)
        #expect(rides.status == 0 && rides.stdout.contains("\"points\""), "\(rides)")
    }
}

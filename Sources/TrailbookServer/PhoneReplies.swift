import Foundation
import TrailbookKit

/// What the server answers Overland when some of a batch could not be stored: still `ok`
/// (Overland would resend anything else for ever), with how many and the first reason.
struct OverlandReply: Encodable {
    var result = "ok"
    let unreadable: Int
    let reason: String
}

/// One message of the reply to an OwnTracks post: a friend's `card` (the name the app shows
/// for a `tid`) or their `location`, in the units the app takes (km/h, whole metres and
/// degrees, seconds since 1970). What the friend's phone did not send is left out.
struct OwnTracksMessage: Encodable {
    let type: String
    let tid: String
    var name: String?
    var lat: Double?
    var lon: Double?
    var tst: Int64?
    var topic: String?
    var vel: Int?
    var cog: Int?
    var alt: Int?
    var acc: Int?
    var batt: Int?

    enum CodingKeys: String, CodingKey {
        case type = "_type"
        case tid, name, lat, lon, tst, topic, vel, cog, alt, acc, batt
    }

    /// The card and the location of a friend's device.
    static func card(andLocationOf f: SharingService.Friend) -> [OwnTracksMessage] {
        let tid = String(f.user.prefix(2)).uppercased()
        var location = OwnTracksMessage(type: "location", tid: tid)
        (location.lat, location.lon) = (f.fix.coordinate!.latitude, f.fix.coordinate!.longitude)
        location.tst = f.fix.unixMilliseconds! / 1000
        location.topic = "owntracks/\(f.user)/\(f.device)"
        location.vel = f.fix.speed.map { Int(($0 * 3.6).rounded()) }
        location.cog = f.fix.track.map { Int($0.rounded()) }
        location.alt = f.fix.altitudeMSL.map { Int($0.rounded()) }
        location.acc = f.accuracy.map { Int($0.rounded()) }
        location.batt = f.battery.map { Int($0.rounded()) }
        return [OwnTracksMessage(type: "card", tid: tid, name: "\(f.user) (\(f.device))"), location]
    }
}

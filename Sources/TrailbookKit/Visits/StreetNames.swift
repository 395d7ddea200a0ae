import Foundation
import GPSCore
import TrackModel

/// Street addresses for places from the user's own geocoder (`visits.street_names`): a
/// Nominatim or Photon server they run or choose, asked once per place (the answer, or that it
/// knew none, is kept with the place). Nothing is sent anywhere unless it is configured.
public struct StreetNames: Sendable {
    public enum Kind: String, Sendable { case nominatim, photon }

    public let kind: Kind
    /// The reverse endpoint, e.g. http://localhost:8080/reverse.
    public let url: URL
    public var timeout: TimeInterval = 10

    /// From the setting `nominatim:URL` or `photon:URL` (checked when the config was read).
    public init?(_ setting: String?) {
        guard let setting, let colon = setting.firstIndex(of: ":"),
            let kind = Kind(rawValue: String(setting[..<colon])),
            let url = URL(string: String(setting[setting.index(after: colon)...]))
        else { return nil }
        self.kind = kind
        self.url = url
    }

    /// The request for the address at `c`.
    func request(_ c: Coordinate) -> URL {
        var parts = URLComponents(url: url, resolvingAgainstBaseURL: false)!
        var query = parts.queryItems ?? []
        if kind == .nominatim { query.append(URLQueryItem(name: "format", value: "jsonv2")) }
        query += [
            URLQueryItem(name: "lat", value: String(format: "%.6f", c.latitude)),
            URLQueryItem(name: "lon", value: String(format: "%.6f", c.longitude)),
        ]
        parts.queryItems = query
        return parts.url!
    }

    /// The address in an answer: the place's own name and its street and number ("Café Zeit,
    /// Bahnhofstrasse 12"); "" when the server knew nothing there.
    public func address(in body: Data) -> String {
        guard let json = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else { return "" }
        func text(_ d: [String: Any]?, _ key: String) -> String? {
            (d?[key] as? String).flatMap { $0.isEmpty ? nil : $0 }
        }
        let name: String?
        let street: String?
        let number: String?
        switch kind {
        case .nominatim:
            let address = json["address"] as? [String: Any]
            name = text(json, "name")
            street = text(address, "road") ?? text(address, "pedestrian") ?? text(address, "footway")
            number = text(address, "house_number")
            if name == nil && street == nil, let whole = text(json, "display_name") {
                return whole.components(separatedBy: ", ").prefix(2).joined(separator: ", ")
            }
        case .photon:
            let properties = ((json["features"] as? [[String: Any]])?.first)?["properties"] as? [String: Any]
            name = text(properties, "name")
            street = text(properties, "street")
            number = text(properties, "housenumber")
        }
        let line = street.map { s in number.map { "\(s) \($0)" } ?? s }
        var parts: [String] = []
        if let name { parts.append(name) }
        if let line, line != name { parts.append(line) }
        return parts.joined(separator: ", ")
    }

    /// Asks for the address of each place of `findings` never asked about, keeps the answers
    /// with the places and puts them in `findings`. Returns the sentence of the first failure
    /// (the server did not answer, or not with 200: nothing kept, asked again next time).
    public func fill(_ findings: inout VisitFindings, store: any TrackStoring, account: String?) async throws
        -> String?
    {
        let asked = Set(
            try await store.read { try $0.foundPlaces(account: account) }.filter { $0.address != nil }.map {
                Int($0.id)
            })
        for (id, place) in findings.places.sorted(by: { $0.key < $1.key }) where !asked.contains(id) {
            let exchange = HTTPExchange(
                "GET", request(place.center), headers: [("User-Agent", "Trailbook (place addresses)")],
                timeout: timeout)
            let answer: HTTPExchange.Answer
            do {
                answer = try await exchange.send()
            } catch {
                return "The street names server \(url.absoluteString) does not answer (\(error.description)); "
                    + "places have no street address for now."
            }
            guard answer.status == 200 else {
                return "The street names server \(url.absoluteString) answered \(answer.status); places have no "
                    + "street address for now."
            }
            let address = self.address(in: answer.body)
            _ = try await store.write { try $0.setFoundPlaceAddress(Int64(id), address: address, account: account) }
            if !address.isEmpty { findings.addresses[id] = address }
        }
        return nil
    }
}

import Foundation

/// A reverse geocoder on 127.0.0.1 for tests, answering as Nominatim (`/nominatim/reverse?
/// format=jsonv2&lat=&lon=`) and Photon (`/photon/reverse?lat=&lon=`) do: the nearest of the
/// `places` given (within 300 m; farther, Nominatim's "Unable to geocode" and Photon's empty
/// collection), with every request logged.
public final class GeocoderServer: @unchecked Sendable {
    public let port: Int
    public let log: String
    private let places: String
    private var process: Process?

    public struct Place: Sendable {
        public var latitude: Double
        public var longitude: Double
        public var name: String
        public var street: String
        public var number: String

        public init(latitude: Double, longitude: Double, name: String, street: String, number: String) {
            self.latitude = latitude
            self.longitude = longitude
            self.name = name
            self.street = street
            self.number = number
        }
    }

    static let script = #"""
        import sys, json, math
        from urllib.parse import urlparse, parse_qs
        from http.server import ThreadingHTTPServer, BaseHTTPRequestHandler
        port, log, places = int(sys.argv[1]), sys.argv[2], json.load(open(sys.argv[3]))
        def nearest(lat, lon):
            best = None
            for p in places:
                d = math.hypot((p['latitude'] - lat) * 111195, (p['longitude'] - lon) * 111195 * math.cos(math.radians(lat)))
                if d <= 300 and (best is None or d < best[0]):
                    best = (d, p)
            return best[1] if best else None
        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                url = urlparse(self.path)
                q = parse_qs(url.query)
                with open(log, 'a') as f:
                    f.write(json.dumps({'path': url.path, 'query': url.query, 'agent': self.headers.get('User-Agent')}) + '\n')
                p = nearest(float(q['lat'][0]), float(q['lon'][0]))
                if url.path == '/nominatim/reverse' and q.get('format') == ['jsonv2']:
                    body = {'error': 'Unable to geocode'} if p is None else {
                        'place_id': 1, 'lat': str(p['latitude']), 'lon': str(p['longitude']), 'category': 'amenity',
                        'type': 'cafe', 'name': p['name'],
                        'display_name': ', '.join([p['name'], p['number'], p['street'], 'Zürich', 'Schweiz']),
                        'address': {'amenity': p['name'], 'house_number': p['number'], 'road': p['street'],
                                    'city': 'Zürich', 'country': 'Schweiz', 'country_code': 'ch'}}
                elif url.path == '/photon/reverse':
                    body = {'type': 'FeatureCollection', 'features': [] if p is None else [{
                        'type': 'Feature', 'geometry': {'type': 'Point', 'coordinates': [p['longitude'], p['latitude']]},
                        'properties': {'osm_id': 1, 'osm_type': 'N', 'name': p['name'], 'street': p['street'],
                                       'housenumber': p['number'], 'city': 'Zürich', 'country': 'Switzerland',
                                       'countrycode': 'CH'}}]}
                else:
                    self.send_response(400); self.end_headers(); return
                data = json.dumps(body).encode()
                self.send_response(200)
                self.send_header('Content-Type', 'application/json')
                self.send_header('Content-Length', str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            def log_message(self, *args):
                pass
        server = ThreadingHTTPServer(('127.0.0.1', port), Handler)
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """#

    /// A server on a free port, not started yet (`start()`).
    public init(directory: String, places: [Place]) throws {
        port = try GPSFake.freePort()
        log = directory + "/geocoder-\(port).jsonl"
        self.places = directory + "/geocoder-\(port)-places.json"
        FileManager.default.createFile(atPath: log, contents: nil)
        let list = places.map {
            [
                "latitude": $0.latitude, "longitude": $0.longitude, "name": $0.name, "street": $0.street,
                "number": $0.number,
            ]
                as [String: Any]
        }
        try JSONSerialization.data(withJSONObject: list).write(to: URL(fileURLWithPath: self.places))
    }

    /// `nominatim:URL` or `photon:URL` for `visits.street_names`.
    public func setting(_ kind: String) -> String { "\(kind):http://127.0.0.1:\(port)/\(kind)/reverse" }

    public func start() throws {
        process = try PythonServer.start(Self.script, [String(port), log, places], port: port, name: "test geocoder")
    }

    public func stop() { PythonServer.stop(&process) }

    /// The requests it took, in order: path, query and User-Agent.
    public func requests() -> [(path: String, query: String, agent: String)] {
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap {
            guard let o = try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] else { return nil }
            return ((o["path"] as? String) ?? "", (o["query"] as? String) ?? "", (o["agent"] as? String) ?? "")
        }
    }

    deinit { stop() }
}

import Foundation

/// Real JPEG files with EXIF data, written by Pillow (Debian's python3-pil) so that the reader
/// is tested against an encoder it did not write.
public enum TestPhotos {
    /// Writes a small JPEG to `path`. `taken` is `YYYY:MM:DD HH:MM:SS` on the camera clock;
    /// `offset` like `+02:00`; `gps` a position with altitude, `gpsUTC` `YYYY:MM:DD HH:MM:SS`.
    /// `colour` makes photos with different content.
    public static func make(
        _ path: String, taken: String?, offset: String? = nil, gps: (Double, Double, Double)? = nil,
        gpsUTC: String? = nil, colour: Int = 0
    ) throws {
        var exif: [String] = []
        var sub: [String] = []
        if let taken { sub.append("0x9003: \"\(taken)\"") }
        if let offset { sub.append("0x9011: \"\(offset)\"") }
        if !sub.isEmpty { exif.append("exif[0x8769] = {\(sub.joined(separator: ", "))}") }
        if let (lat, lon, alt) = gps {
            func dms(_ v: Double) -> String {
                let a = abs(v)
                let d = a.rounded(.down)
                let m = ((a - d) * 60).rounded(.down)
                let s = ((a - d) * 60 - m) * 60
                return "(\(d), \(m), \(s))"
            }
            var g = [
                "1: \"\(lat < 0 ? "S" : "N")\"", "2: \(dms(lat))", "3: \"\(lon < 0 ? "W" : "E")\"", "4: \(dms(lon))",
                "5: b\"\\x00\"", "6: \(alt)",
            ]
            if let gpsUTC {
                let parts = gpsUTC.split(separator: " ")
                let hms = parts[1].split(separator: ":").map { "\($0).0" }.joined(separator: ", ")
                g += ["7: (\(hms))", "0x1D: \"\(parts[0])\""]
            }
            exif.append("exif[0x8825] = {\(g.joined(separator: ", "))}")
        }
        let script = """
            from PIL import Image
            img = Image.new("RGB", (64, 48), (\(colour % 256), 90, 160))
            exif = Image.Exif()
            exif[0x0110] = "Trailbook test camera"
            \(exif.joined(separator: "\n"))
            img.save(r"\(path)", "JPEG", exif=exif)
            """
        try python(script)
    }

    static func python(_ script: String) throws {
        let python = "/usr/bin/python3"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", script]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        if message.contains("No module named 'PIL'") {
            throw SupportError("Pillow is missing: sudo apt-get install python3-pil (make test does this).")
        }
        guard process.terminationStatus == 0 else { throw SupportError("Writing a test JPEG failed: \(message)") }
    }
}

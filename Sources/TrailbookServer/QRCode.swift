import CQRencode

/// QR codes as inline SVG, encoded by Debian's libqrencode: what a phone app scans to be paired.
enum QRCode {
    /// `text` as a QR code (error correction M, byte mode), four modules of quiet zone around it:
    /// the side in modules and the dark modules as one SVG path (a page's template draws it, so
    /// nothing goes in unescaped); nil when libqrencode cannot encode it (too long).
    static func modules(_ text: String) -> (side: Int, path: String)? {
        guard let code = QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1) else { return nil }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        guard let data = code.pointee.data else { return nil }
        var path = ""
        path.reserveCapacity(width * width * 6)
        for y in 0..<width {
            for x in 0..<width where data[y * width + x] & 1 == 1 { path += "M\(x + 4) \(y + 4)h1v1h-1z" }
        }
        return (width + 8, path)
    }

    /// What a template draws of a QR code: the SVG's side and path, and its label.
    struct Drawing: Encodable {
        let side: Int
        let path: String
        let label: String
    }

    /// `text`'s QR code as a template draws it (nil: too long for one).
    static func drawing(_ text: String, label: String) -> Drawing? {
        modules(text).map { Drawing(side: $0.side, path: $0.path, label: label) }
    }
}

import Formats
import GPSCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGPX(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    let reader = GPXReader()
    let step = size > 0 ? Int(bytes[0] % 61) + 1 : 1
    func check(_ item: GPXReader.Item) {
        if case .point(let fix) = item, let c = fix.coordinate {
            precondition(c.latitude.isFinite && abs(c.latitude) <= 90 && abs(c.longitude) <= 180)
        }
    }
    do {
        var i = 0
        while i < size {
            try reader.feed(UnsafeRawBufferPointer(rebasing: bytes[i..<min(i + step, size)]), check)
            i += step
        }
        try reader.finish(check)
    } catch {
        // A failure with a line is the expected answer to a bad document.
        precondition(error is GPXReader.Failure)
    }
    return 0
}

import GPSCore
import NMEA

/// Feeds the input to a decoder in chunks whose sizes come from the input itself.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNMEA(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    let decoder = NMEADecoder(holdLimit: 8)
    var fixes = 0
    let step = size > 0 ? Int(bytes[0] % 97) + 1 : 1
    var i = 0
    while i < size {
        decoder.feed(UnsafeRawBufferPointer(rebasing: bytes[i..<min(i + step, size)])) { fix in
            // Whatever comes out must be a fix the rest of Trailbook can take.
            if let c = fix.coordinate { precondition(c.latitude.isFinite && abs(c.latitude) <= 90) }
            if let t = fix.timeOfDay { precondition(t >= 0 && t < 86_401_000) }
            fixes += 1
        }
        i += step
    }
    decoder.finish { _ in fixes += 1 }
    return 0
}

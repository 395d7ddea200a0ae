import Formats
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONTrack(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    if let (segments, places) = try? JSONTrack.read(Data(bytes: data, count: size)) {
        for fix in segments.joined() + places.map(\.fix) {
            precondition(abs(fix.coordinate!.latitude) <= 90 && abs(fix.coordinate!.longitude) <= 180)
        }
    }
    return 0
}

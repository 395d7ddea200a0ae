import Photos

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEXIF(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    if let m = try? JPEGMetadata.read(Array(UnsafeBufferPointer(start: data, count: size))), let c = m.coordinate {
        precondition(abs(c.latitude) <= 90 && abs(c.longitude) <= 180)
    }
    return 0
}

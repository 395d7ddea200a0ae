import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One MQTT 3.1.1 publish at QoS 1 over a plain TCP connection: CONNECT (clean session),
/// CONNACK, PUBLISH, PUBACK, DISCONNECT. Returns once the broker acknowledged the message.
/// Written from the OASIS MQTT 3.1.1 specification (sections 2, 3.1-3.4, 3.14).
enum MQTTPublish {
    static func publish(_ payload: Data, topic: String, host: String, port: Int, timeout: Double) throws(AlertSendError)
    {
        let broker = "\(host):\(port)"
        let fd = try connect(host: host, port: port, timeout: timeout)
        defer { close(fd) }
        // CONNECT: protocol "MQTT" level 4, clean session, keep-alive 30 s, a client id.
        let client = "trailbook-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        var connect: [UInt8] = string("MQTT") + [4, 0x02, 0, 30]
        connect += string(client)
        try write(fd, packet(0x10, connect), broker)
        let ack = try read(fd, 4, broker)
        guard ack[0] == 0x20, ack[1] == 2 else { throw AlertSendError("\(broker) is no MQTT broker") }
        guard ack[3] == 0 else {
            let reasons = [
                1: "protocol level refused", 2: "client id refused", 3: "server unavailable",
                4: "bad user name or password", 5: "not authorised",
            ]
            throw AlertSendError("\(broker) refused the connection: \(reasons[Int(ack[3])] ?? "code \(ack[3])")")
        }
        // PUBLISH at QoS 1 with packet id 1.
        try write(fd, packet(0x32, string(topic) + [0, 1] + [UInt8](payload)), broker)
        let puback = try read(fd, 4, broker)
        guard puback[0] == 0x40, puback[1] == 2, puback[2] == 0, puback[3] == 1 else {
            throw AlertSendError("\(broker) did not acknowledge the message")
        }
        try? write(fd, [0xE0, 0], broker)
    }

    /// A UTF-8 string with its two-byte length.
    static func string(_ text: String) -> [UInt8] {
        let bytes = Array(text.utf8)
        return [UInt8(bytes.count >> 8), UInt8(bytes.count & 0xFF)] + bytes
    }

    /// A control packet: its type byte, the remaining length (7 bits a byte), the rest.
    static func packet(_ type: UInt8, _ rest: [UInt8]) -> [UInt8] {
        var out = [type]
        var n = rest.count
        repeat {
            var byte = UInt8(n % 128)
            n /= 128
            if n > 0 { byte |= 0x80 }
            out.append(byte)
        } while n > 0
        return out + rest
    }

    static func connect(host: String, port: Int, timeout: Double) throws(AlertSendError) -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else {
            throw AlertSendError("unknown host \(host)")
        }
        defer { freeaddrinfo(list) }
        var seconds = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1_000_000))
        var problem = "connection refused"
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let a = entry {
            entry = a.pointee.ai_next
            let fd = socket(a.pointee.ai_family, a.pointee.ai_socktype, a.pointee.ai_protocol)
            guard fd >= 0 else { continue }
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &seconds, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &seconds, socklen_t(MemoryLayout<timeval>.size))
            if Glibc.connect(fd, a.pointee.ai_addr, a.pointee.ai_addrlen) == 0 { return fd }
            problem = String(cString: strerror(errno))
            close(fd)
        }
        throw AlertSendError("\(host):\(port) did not answer: \(problem)")
    }

    static func write(_ fd: Int32, _ bytes: [UInt8], _ broker: String) throws(AlertSendError) {
        var done = 0
        while done < bytes.count {
            let n = bytes[done...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                throw AlertSendError("\(broker) closed the connection: \(String(cString: strerror(errno)))")
            }
            done += n
        }
    }

    static func read(_ fd: Int32, _ count: Int, _ broker: String) throws(AlertSendError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = bytes[done...].withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                let why = n == 0 ? "closed the connection" : "did not answer: \(String(cString: strerror(errno)))"
                throw AlertSendError("\(broker) \(why)")
            }
            done += n
        }
        return bytes
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A socket call failed: the call and the system's reason.
struct SocketError: Error, CustomStringConvertible {
    var operation: String
    var code: Int32

    var description: String { "\(operation): \(String(cString: strerror(code)))" }

    /// The system's reason in lower case, as the CLI words reasons (`connection refused`).
    var reason: String { String(cString: strerror(code)).lowercased() }
}

/// TCP sockets on the loopback interface only (127.0.0.1), through POSIX calls: the one file of the real-socket
/// drivers that talks to the kernel's sockets.
enum PosixSocket {
    /// The outcome of a non-blocking read.
    enum ReadResult {
        case bytes([UInt8])
        case closed
        case wouldBlock
    }

    /// A non-blocking listening socket on 127.0.0.1:`port` (0: a free port, see `localPort`).
    /// - Throws: `SocketError` when the port cannot be bound.
    static func listen(port: UInt16) throws -> Int32 {
        let fd = try makeSocket()
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = loopback(port: port)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else { throw failure("bind 127.0.0.1:\(port)", closing: fd) }
        guard Glibc.listen(fd, 16) == 0 else { throw failure("listen", closing: fd) }
        try setNonBlocking(fd)
        return fd
    }

    /// The local port a socket is bound to.
    static func localPort(_ fd: Int32) -> UInt16 {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return UInt16(bigEndian: address.sin_port)
    }

    /// Accepts a pending connection as a non-blocking socket with Nagle's algorithm off, or nil when none is waiting.
    static func accept(_ listener: Int32) -> Int32? {
        let fd = Glibc.accept(listener, nil, nil)
        guard fd >= 0 else { return nil }
        try? setNonBlocking(fd)
        setNoDelay(fd)
        return fd
    }

    /// Turns Nagle's algorithm off (TCP_NODELAY), as a messenger's server and client do and as the simulated TCP
    /// model assumes (`TCPEndpoint`): with it on, an answer written while an earlier small segment waits for its ACK
    /// is held until the peer's delayed ACK, 40 ms on Linux (seen in a capture of vkmax against serve: a MSG_SEND
    /// answered 41 ms after its request, the other answers within a millisecond).
    static func setNoDelay(_ fd: Int32) {
        var yes: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Connects to 127.0.0.1:`port` (blocking until connected or refused), then makes the socket non-blocking.
    /// - Throws: `SocketError` when the connection is refused.
    static func connect(port: UInt16) throws -> Int32 {
        let fd = try makeSocket()
        var address = loopback(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw failure("connect 127.0.0.1:\(port)", closing: fd) }
        try setNonBlocking(fd)
        setNoDelay(fd)
        return fd
    }

    /// Reads what is there (up to 64 KiB).
    static func read(_ fd: Int32) -> ReadResult {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        if count > 0 { return .bytes(Array(buffer.prefix(count))) }
        if count < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return .wouldBlock }
        return .closed
    }

    /// Writes every byte, waiting while the socket's buffer is full, up to 5 s without progress: for SyncSim's own
    /// test clients (`RealSocketClient`), never for serve, whose connections queue what the socket does not take
    /// (`SendQueue`) so that a client that stops reading holds up no one.
    ///
    /// The 5 s count from the last byte the socket took: before, they counted every wait of the whole write, so a
    /// 20 MB upload to a peer reading steadily but slowly (serve on a loaded machine) failed with EAGAIN halfway.
    /// - Throws: `SocketError` when the peer is gone or the buffer stays full for 5 s.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) throws {
        var offset = 0
        var waits = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes {
                send(fd, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            }
            if written > 0 {
                offset += written
                waits = 0
            } else if written < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR, waits < 50 {
                waits += 1
                var entry = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                _ = Glibc.poll(&entry, 1, 100)
            } else {
                throw SocketError(operation: "write", code: errno)
            }
        }
    }

    /// Writes what the socket's buffer takes of `bytes` from `offset` on, without waiting.
    /// - Returns: how many bytes were written; 0 when the buffer is full (or the call was interrupted).
    /// - Throws: `SocketError` when the peer is gone (a reset, a broken pipe) or the call failed otherwise.
    static func write(_ fd: Int32, _ bytes: [UInt8], from offset: Int) throws(SocketError) -> Int {
        guard offset < bytes.count else { return 0 }
        let written = bytes.withUnsafeBytes {
            send(fd, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
        }
        if written >= 0 { return written }
        if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return 0 }
        throw SocketError(operation: "write", code: errno)
    }

    /// Which sockets `poll(reading:writing:timeoutMilliseconds:)` found ready.
    struct Readiness {
        /// Sockets with bytes to read, or closed or failed (a read tells which).
        var readable: Set<Int32> = []
        /// Sockets whose buffer takes bytes again, or closed or failed (a write tells which).
        var writable: Set<Int32> = []
    }

    /// Waits until one of `reading` is readable or one of `writing` writable (either closed or failed counts), or
    /// `timeoutMilliseconds` pass. A socket may be in both.
    static func poll(reading: [Int32], writing: [Int32], timeoutMilliseconds: Int32) -> Readiness {
        var events: [Int32: Int16] = [:]
        var order: [Int32] = []
        for fd in reading + writing where events[fd] == nil { order.append(fd); events[fd] = 0 }
        for fd in reading { events[fd]! |= Int16(POLLIN) }
        for fd in writing { events[fd]! |= Int16(POLLOUT) }
        var entries = order.map { pollfd(fd: $0, events: events[$0]!, revents: 0) }
        let ready = entries.withUnsafeMutableBufferPointer {
            Glibc.poll($0.baseAddress, nfds_t($0.count), max(0, timeoutMilliseconds))
        }
        var readiness = Readiness()
        guard ready > 0 else { return readiness }
        let failed = Int16(POLLHUP | POLLERR | POLLNVAL)
        for entry in entries where entry.revents != 0 {
            if entry.events & Int16(POLLIN) != 0, entry.revents & (Int16(POLLIN) | failed) != 0 {
                readiness.readable.insert(entry.fd)
            }
            if entry.events & Int16(POLLOUT) != 0, entry.revents & (Int16(POLLOUT) | failed) != 0 {
                readiness.writable.insert(entry.fd)
            }
        }
        return readiness
    }

    /// Waits until one of `fds` is readable (or closed) or `timeoutMilliseconds` pass.
    /// - Returns: the readable sockets.
    static func poll(_ fds: [Int32], timeoutMilliseconds: Int32) -> [Int32] {
        var entries = fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        let ready = entries.withUnsafeMutableBufferPointer {
            Glibc.poll($0.baseAddress, nfds_t($0.count), max(0, timeoutMilliseconds))
        }
        guard ready > 0 else { return [] }
        return entries.filter { $0.revents != 0 }.map(\.fd)
    }

    static func close(_ fd: Int32) { _ = Glibc.close(fd) }

    private static func makeSocket() throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw SocketError(operation: "socket", code: errno) }
        return fd
    }

    private static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }

    private static func setNonBlocking(_ fd: Int32) throws {
        let flags = fcntl(fd, F_GETFL, 0)
        guard flags >= 0, fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0 else {
            throw SocketError(operation: "fcntl O_NONBLOCK", code: errno)
        }
    }

    private static func failure(_ operation: String, closing fd: Int32) -> SocketError {
        let error = SocketError(operation: operation, code: errno)
        Glibc.close(fd)
        return error
    }
}

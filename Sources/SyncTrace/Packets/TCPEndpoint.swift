/// One end of a TCP connection: an IP address and a port.
public struct TCPEndpoint: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The IPv4 or IPv6 address.
    public var address: IPAddress
    /// The TCP port.
    public var port: UInt16

    /// An endpoint from its address and port.
    public init(address: IPAddress, port: UInt16) {
        self.address = address
        self.port = port
    }

    /// `198.18.0.1:443`, or `[2001:db8::1]:443` for IPv6.
    public var description: String {
        switch address {
        case .v4: "\(address):\(port)"
        case .v6: "[\(address)]:\(port)"
        }
    }

    public static func < (lhs: TCPEndpoint, rhs: TCPEndpoint) -> Bool {
        (lhs.address, lhs.port) < (rhs.address, rhs.port)
    }
}

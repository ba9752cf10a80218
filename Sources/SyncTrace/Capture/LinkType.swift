/// The link-layer header type of a capture, by its LINKTYPE_ number (tcpdump.org/linktypes.html).
public struct LinkType: Hashable, Sendable, CustomStringConvertible {
    /// The LINKTYPE_ value as stored in the file (not the platform's DLT_ value).
    public var rawValue: UInt32

    /// Wraps a LINKTYPE_ value as stored in the capture file.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// LINKTYPE_NULL (0): BSD loopback, a 4-byte address family in the capturing host's byte order.
    public static let null = LinkType(rawValue: 0)
    /// LINKTYPE_ETHERNET (1): Ethernet II, with optional 802.1Q / 802.1ad VLAN tags.
    public static let ethernet = LinkType(rawValue: 1)
    /// LINKTYPE_RAW (101): a bare IPv4 or IPv6 packet.
    public static let raw = LinkType(rawValue: 101)
    /// LINKTYPE_LOOP (108): OpenBSD loopback, a 4-byte address family in network byte order.
    public static let loop = LinkType(rawValue: 108)
    /// LINKTYPE_LINUX_SLL (113): Linux cooked capture v1, a 16-byte header.
    public static let linuxCooked = LinkType(rawValue: 113)
    /// LINKTYPE_IPV4 (228): a bare IPv4 packet.
    public static let ipv4 = LinkType(rawValue: 228)
    /// LINKTYPE_IPV6 (229): a bare IPv6 packet.
    public static let ipv6 = LinkType(rawValue: 229)
    /// LINKTYPE_LINUX_SLL2 (276): Linux cooked capture v2, a 20-byte header.
    public static let linuxCookedV2 = LinkType(rawValue: 276)

    /// The link types the reader decodes.
    public static let supported: [LinkType] = [
        .null, .ethernet, .raw, .loop, .linuxCooked, .ipv4, .ipv6, .linuxCookedV2,
    ]

    /// Whether the reader decodes this link type.
    public var isSupported: Bool { Self.supported.contains(self) }

    public var description: String {
        switch rawValue {
        case 0: "null/loopback"
        case 1: "Ethernet"
        case 101: "raw IP"
        case 108: "OpenBSD loopback"
        case 113: "Linux cooked v1"
        case 228: "raw IPv4"
        case 229: "raw IPv6"
        case 276: "Linux cooked v2"
        default: "LINKTYPE \(rawValue)"
        }
    }
}

/// Why a captured packet was not fed to TCP reassembly. Every skipped packet is counted under one reason.
public enum SkipReason: String, Hashable, Comparable, Sendable, CaseIterable, CustomStringConvertible {
    /// The link-layer header is cut short.
    case truncatedLinkHeader = "truncated link header"
    /// The link layer carries something other than IPv4 or IPv6 (ARP, LLDP, an 802.3 frame, ...).
    case notIP = "not IP"
    /// The IPv4 or IPv6 header (or an IPv6 extension header) is cut short by the snap length.
    case truncatedIPHeader = "truncated IP header"
    /// The IP header contradicts itself: wrong version, header length below 20, total length below the header.
    case malformedIPHeader = "malformed IP header"
    /// An IPv4 fragment or an IPv6 Fragment header with more to come; fragments are not reassembled.
    case ipFragment = "IP fragment"
    /// IPsec ESP: the transport header is encrypted.
    case encrypted = "encrypted (ESP)"
    /// UDP, ICMP or any transport other than TCP.
    case notTCP = "not TCP"
    /// The TCP header is cut short by the snap length.
    case truncatedTCPHeader = "truncated TCP header"
    /// The TCP header contradicts itself: data offset below 5 words, or beyond the IP payload.
    case malformedTCPHeader = "malformed TCP header"

    public var description: String { rawValue }

    public static func < (lhs: SkipReason, rhs: SkipReason) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

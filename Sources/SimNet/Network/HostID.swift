import SimCore

/// A host on the simulated network: a client (phone) or a server, each with its own access link.
public struct HostID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The host's index in creation order.
    public let rawValue: Int

    /// The host with index `rawValue` (creation order).
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// `host3`.
    public var description: String { "host\(rawValue)" }

    public static func < (lhs: HostID, rhs: HostID) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// When a packet was captured: nanoseconds since the Unix epoch, as recorded in the capture file.
///
/// Microsecond captures are scaled up (the reader always asks libpcap for nanosecond precision), so every
/// timestamp has the same unit. This is wall-clock time of the capturing machine, not simulation time.
public struct CaptureTimestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Nanoseconds since 1970-01-01T00:00:00Z.
    public var nanosecondsSinceEpoch: Int64

    /// A timestamp `nanosecondsSinceEpoch` ns after 1970-01-01T00:00:00Z.
    public init(nanosecondsSinceEpoch: Int64) { self.nanosecondsSinceEpoch = nanosecondsSinceEpoch }

    /// A timestamp from whole seconds and a nanosecond fraction (0..<1_000_000_000).
    public init(seconds: Int64, nanoseconds: Int64) {
        self.nanosecondsSinceEpoch = seconds &* 1_000_000_000 &+ nanoseconds
    }

    /// Nanoseconds from `other` to `self` (negative when `self` is earlier).
    public func nanoseconds(since other: CaptureTimestamp) -> Int64 {
        nanosecondsSinceEpoch &- other.nanosecondsSinceEpoch
    }

    /// `seconds.nanoseconds` with nine fraction digits, e.g. `1700000000.000123456` (`-0.000000001` before 1970).
    public var description: String {
        let magnitude = nanosecondsSinceEpoch.magnitude
        let digits = String(magnitude % 1_000_000_000)
        let text = "\(magnitude / 1_000_000_000)." + String(repeating: "0", count: 9 - digits.count) + digits
        return nanosecondsSinceEpoch < 0 ? "-" + text : text
    }

    public static func < (lhs: CaptureTimestamp, rhs: CaptureTimestamp) -> Bool {
        lhs.nanosecondsSinceEpoch < rhs.nanosecondsSinceEpoch
    }
}

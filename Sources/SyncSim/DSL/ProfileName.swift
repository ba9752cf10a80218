/// The name of a link profile from the network model (DESIGN.md §5), such as `"EDGE"` or `"3G"`.
///
/// The DSL only names profiles; the world looks them up in SimNet's profile table, so a scenario can name a
/// profile added later by writing its string (`"LTE-M"`).
public struct ProfileName: RawRepresentable, Hashable, Comparable, Sendable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    /// The profile's name as SimNet knows it.
    public var rawValue: String

    /// Names the profile `rawValue` as SimNet knows it (`"EDGE"`, `"3G"`).
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A string literal names a profile: `"EDGE"`.
    public init(stringLiteral value: String) { self.rawValue = value }

    /// 20/18 kbit/s, 650 ms each way, 2% loss (ATC profile 2G-DevelopingRural).
    public static let twoGRural = ProfileName(rawValue: "2G-rural")
    /// 50/20 kbit/s, 500 ms (old Chrome DevTools GPRS preset).
    public static let gprs = ProfileName(rawValue: "GPRS")
    /// 240/200 kbit/s, 400/440 ms (ATC profile Edge-Average).
    public static let edge = ProfileName(rawValue: "EDGE")
    /// EDGE with 1% loss (ATC profile Edge-Lossy).
    public static let edgeLossy = ProfileName(rawValue: "EDGE-lossy")
    /// 780/330 kbit/s, 100 ms (ATC profile 3G-Average).
    public static let threeG = ProfileName(rawValue: "3G")
    /// 1638/750 kbit/s, 150 ms RTT (Lighthouse mobileSlow4G).
    public static let fourG = ProfileName(rawValue: "4G")
    /// A fast, low-latency Wi-Fi link.
    public static let wifi = ProfileName(rawValue: "WiFi")
    /// No connectivity at all.
    public static let offline = ProfileName(rawValue: "offline")

    /// The profiles of DESIGN.md §5, slowest first, with the Swift spelling the DSL printer uses for each.
    public static let known: [(profile: ProfileName, swiftName: String)] = [
        (.twoGRural, "twoGRural"), (.gprs, "gprs"), (.edge, "edge"), (.edgeLossy, "edgeLossy"),
        (.threeG, "threeG"), (.fourG, "fourG"), (.wifi, "wifi"), (.offline, "offline"),
    ]

    public var description: String { rawValue }

    public static func < (lhs: ProfileName, rhs: ProfileName) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// How a header splits bytes 1-3 between `cmd` and `seq` (DESIGN.md §3).
///
/// Most field clients read `cmd` u8 + `seq` u16 (`.cmd8Seq16`, the default); some read `cmd` u16 + `seq` u8
/// (`.cmd16Seq8`, 256 seq slots). Both are big-endian.
public enum HeaderLayout: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// Byte 1 `cmd`, bytes 2-3 `seq`. The default.
    case cmd8Seq16 = "cmd8-seq16"
    /// Bytes 1-2 `cmd`, byte 3 `seq`.
    case cmd16Seq8 = "cmd16-seq8"

    /// The layout of the table in DESIGN.md §3.
    public static let standard: HeaderLayout = .cmd8Seq16

    /// The largest seq the layout carries: 65535 or 255.
    public var maxSeq: UInt16 {
        switch self {
        case .cmd8Seq16: UInt16.max
        case .cmd16Seq8: UInt16(UInt8.max)
        }
    }

    /// The name used on the command line: `cmd8-seq16` or `cmd16-seq8`.
    public var description: String { rawValue }
}

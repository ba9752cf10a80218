/// A mistake in a sweep's specification or in a shard file: names the option, file or line and what was expected.
///
/// Printed as one line by the CLI, which exits 2.
public struct SweepError: Error, Hashable, CustomStringConvertible {
    private enum Code: Hashable {
        case invalid(String)
    }

    private let code: Code

    private init(_ code: Code) { self.code = code }

    /// Any inconsistency, described in full (`"--param historyPageSize=0: expected an integer in 1...500"`).
    public static func invalid(_ detail: String) -> Self { Self(.invalid(detail)) }

    public var description: String {
        switch code {
        case .invalid(let text): text
        }
    }
}

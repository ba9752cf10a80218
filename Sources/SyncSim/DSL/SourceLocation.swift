/// Where in a scenario's Swift source something was written: `#fileID` and `#line` of the DSL call.
///
/// A violation names the step that ran last with this location, so a failure points at the scenario line.
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
    /// The module-qualified file, as `#fileID` gives it (`Scenarios/ReconnectDuringSend.swift`).
    public var fileID: String
    /// The 1-based line number.
    public var line: Int

    /// Creates a location from `#fileID` and a 1-based `#line`.
    public init(fileID: String, line: Int) {
        self.fileID = fileID
        self.line = line
    }

    /// The location of something made by code rather than written in a scenario (the shrinker, a trace import).
    public static let generated = SourceLocation(fileID: "<generated>", line: 0)

    /// `file:line`, as compilers print it.
    public var description: String { "\(fileID):\(line)" }
}

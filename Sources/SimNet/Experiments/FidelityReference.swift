/// The ns-3 reference grid: parses the CSV that the project's ns-3 tool `grid.py` writes.
///
/// Columns: `profile,down_kbps,up_kbps,one_way_ms,bytes,loss,seeds,p10_ms,median_ms,p90_ms,median_events`.
public enum FidelityReference {
    /// The header line `grid.py` writes.
    public static let header = "profile,down_kbps,up_kbps,one_way_ms,bytes,loss,seeds,"
        + "p10_ms,median_ms,p90_ms,median_events"

    /// Parses the reference CSV.
    /// - Parameters:
    ///   - text: the file's contents.
    ///   - file: the file name, for error messages.
    /// - Returns: the cells in file order.
    /// - Throws: `FidelityReferenceError` naming the line and field when the header or a row is malformed.
    public static func parse(_ text: String, file: String = "ns3-reference.csv") throws -> [FidelityCell] {
        let lines = text.split(whereSeparator: \.isNewline).map(String.init)
        guard let first = lines.first, first == header else {
            throw FidelityReferenceError(file: file, line: 1, message: "expected the header `\(header)`")
        }
        var cells: [FidelityCell] = []
        for (index, line) in lines.enumerated().dropFirst() where !line.isEmpty {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            let number = index + 1
            guard fields.count == 11 else {
                throw FidelityReferenceError(file: file, line: number,
                                             message: "expected 11 fields, found \(fields.count)")
            }
            func failure(_ name: String, _ expected: String, _ column: Int) -> FidelityReferenceError {
                FidelityReferenceError(file: file, line: number,
                                       message: "field \(name): expected \(expected), found `\(fields[column])`")
            }
            func int(_ column: Int, _ name: String) throws -> Int {
                guard let value = Int(fields[column]) else { throw failure(name, "an integer", column) }
                return value
            }
            func double(_ column: Int, _ name: String) throws -> Double {
                guard let value = Double(fields[column]) else { throw failure(name, "a number", column) }
                return value
            }
            cells.append(FidelityCell(
                profile: fields[0], downlinkKilobitsPerSecond: try int(1, "down_kbps"),
                uplinkKilobitsPerSecond: try int(2, "up_kbps"), oneWayDelayMilliseconds: try int(3, "one_way_ms"),
                bytes: try int(4, "bytes"), lossProbability: try double(5, "loss"), seeds: try int(6, "seeds"),
                reference: TransferPercentiles(p10: try double(7, "p10_ms"), median: try double(8, "median_ms"),
                                               p90: try double(9, "p90_ms")),
                referenceMedianEvents: try int(10, "median_events")
            ))
        }
        return cells
    }
}

/// A malformed reference CSV: the file, the 1-based line and what was expected.
public struct FidelityReferenceError: Error, Hashable, CustomStringConvertible {
    /// The file name given to `parse`.
    public let file: String
    /// 1-based line number.
    public let line: Int
    private let message: String

    init(file: String, line: Int, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    /// `ns3-reference.csv line 4: field bytes: expected an integer, found `x``.
    public var description: String { "\(file) line \(line): \(message)" }
}

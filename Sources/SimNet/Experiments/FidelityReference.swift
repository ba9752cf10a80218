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

/// ns-3's figure per run: parses the samples CSV that `grid.py --samples` writes, one row per cell and seed.
///
/// Columns: `profile,down_kbps,up_kbps,one_way_ms,bytes,loss,seed,time_ms,events`.
public enum FidelitySamples {
    /// The header line `grid.py --samples` writes.
    public static let header = "profile,down_kbps,up_kbps,one_way_ms,bytes,loss,seed,time_ms,events"

    /// Parses the samples CSV and hands each cell its completion times.
    /// - Parameters:
    ///   - text: the file's contents.
    ///   - cells: the reference cells (from `FidelityReference.parse`); a cell without rows keeps no samples.
    ///   - file: the file name, for error messages.
    /// - Returns: `cells`, each with `referenceSamples` in seed order (ms; -1, a run that did not finish, counts as
    ///   one hour as in `FidelityCell.run`).
    /// - Throws: `FidelityReferenceError` naming the line and field when the header or a row is malformed, a row
    ///   belongs to no cell, or a cell's rows are not seeds 1...`seeds`.
    public static func attach(_ text: String, to cells: [FidelityCell],
                              file: String = "ns3-samples.csv") throws -> [FidelityCell] {
        let lines = text.split(whereSeparator: \.isNewline).map(String.init)
        guard let first = lines.first, first == header else {
            throw FidelityReferenceError(file: file, line: 1, message: "expected the header `\(header)`")
        }
        var cells = cells
        var positions: [String: Int] = [:]
        for (position, cell) in cells.enumerated() {
            positions[cell.label] = position
            cells[position].referenceSamples = []
        }
        var lastLine: [Int: Int] = [:]
        for (index, line) in lines.enumerated().dropFirst() where !line.isEmpty {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            let number = index + 1
            guard fields.count == 9 else {
                throw FidelityReferenceError(file: file, line: number,
                                             message: "expected 9 fields, found \(fields.count)")
            }
            func failure(_ name: String, _ expected: String, _ column: Int) -> FidelityReferenceError {
                FidelityReferenceError(file: file, line: number,
                                       message: "field \(name): expected \(expected), found `\(fields[column])`")
            }
            guard let bytes = Int(fields[4]) else { throw failure("bytes", "an integer", 4) }
            guard let loss = Double(fields[5]) else { throw failure("loss", "a number", 5) }
            guard let seed = Int(fields[6]) else { throw failure("seed", "an integer", 6) }
            guard let time = Double(fields[7]) else { throw failure("time_ms", "a number", 7) }
            let probe = FidelityCell(profile: fields[0], downlinkKilobitsPerSecond: 0, uplinkKilobitsPerSecond: 0,
                                     oneWayDelayMilliseconds: 0, bytes: bytes, lossProbability: loss, seeds: 0,
                                     reference: TransferPercentiles(p10: 0, median: 0, p90: 0),
                                     referenceMedianEvents: 0)
            guard let position = positions[probe.label] else {
                throw FidelityReferenceError(file: file, line: number,
                                             message: "no reference cell `\(probe.label)`")
            }
            guard seed == cells[position].referenceSamples.count + 1 else {
                throw FidelityReferenceError(file: file, line: number, message: "field seed: expected "
                    + "\(cells[position].referenceSamples.count + 1), found `\(fields[6])`")
            }
            cells[position].referenceSamples.append(time < 0 ? 3_600_000 : time)
            lastLine[position] = number
        }
        for (position, cell) in cells.enumerated() where !cell.referenceSamples.isEmpty
            && cell.referenceSamples.count != cell.seeds {
            throw FidelityReferenceError(file: file, line: lastLine[position] ?? 1, message: "\(cell.label): "
                + "\(cell.referenceSamples.count) seeds, the reference says \(cell.seeds)")
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

import SyncProtocol

/// Frame counts per opcode and request-to-response latencies matched by seq, over the connections of a capture.
///
/// A request (`cmd` 0) is matched with the first response or error (`cmd` 1 or 3) with the same seq travelling the
/// other way on the same connection. Latency is the difference of the two frames' completion timestamps, i.e.
/// what the capture point saw, not what either endpoint measured.
public struct TraceFrameSummary: Hashable, Sendable {
    /// How many frames of each kind carried one opcode.
    public struct OpcodeCount: Hashable, Sendable {
        /// The opcode counted.
        public var opcode: Opcode
        /// Frames with `cmd` 0.
        public var requests = 0
        /// Frames with `cmd` 1.
        public var responses = 0
        /// Frames with `cmd` 2.
        public var pushes = 0
        /// Frames with `cmd` 3.
        public var errors = 0
        /// All frames of this opcode.
        public var total: Int { requests + responses + pushes + errors }
    }

    /// Request-to-response latencies of one opcode, in nanoseconds of capture time.
    public struct Latency: Hashable, Sendable {
        /// The opcode counted.
        public var opcode: Opcode
        /// Matched request/response pairs.
        public var count: Int
        /// Shortest latency.
        public var minimumNanoseconds: Int64
        /// Nearest-rank median.
        public var medianNanoseconds: Int64
        /// Nearest-rank 90th percentile.
        public var p90Nanoseconds: Int64
        /// Longest latency.
        public var maximumNanoseconds: Int64
    }

    /// Per opcode, in opcode order.
    public var opcodeCounts: [OpcodeCount] = []
    /// Per opcode with at least one matched request, in opcode order.
    public var latencies: [Latency] = []
    /// Requests no response or error answered before the capture ended (or before their seq was reused).
    public var unansweredRequestCount = 0
    /// Responses and errors with no request of that seq waiting.
    public var unmatchedResponseCount = 0
    /// Responses whose seq matched a request of another opcode (not counted as latencies).
    public var opcodeMismatchCount = 0

    /// Summarises the frames of `connections`.
    public init(_ connections: [TraceDecoder.ConnectionFrames]) {
        var counts: [Opcode: OpcodeCount] = [:]
        var samples: [Opcode: [Int64]] = [:]
        for connection in connections {
            var waiting: [TraceDirection: [UInt16: TraceFrame]] = [:]
            for frame in connection.frames {
                var count = counts[frame.opcode] ?? OpcodeCount(opcode: frame.opcode)
                switch frame.cmd {
                case .request:
                    count.requests += 1
                    if waiting[frame.direction, default: [:]].updateValue(frame, forKey: frame.seq) != nil {
                        unansweredRequestCount += 1
                    }
                case .response, .error:
                    if frame.cmd == .response { count.responses += 1 } else { count.errors += 1 }
                    let requestDirection: TraceDirection =
                        frame.direction == .clientToServer ? .serverToClient : .clientToServer
                    if let request = waiting[requestDirection]?.removeValue(forKey: frame.seq) {
                        if request.opcode == frame.opcode {
                            samples[frame.opcode, default: []].append(
                                frame.timestamp.nanoseconds(since: request.timestamp))
                        } else {
                            opcodeMismatchCount += 1
                        }
                    } else {
                        unmatchedResponseCount += 1
                    }
                case .push:
                    count.pushes += 1
                }
                counts[frame.opcode] = count
            }
            unansweredRequestCount += waiting.values.reduce(0) { $0 + $1.count }
        }
        opcodeCounts = counts.values.sorted { $0.opcode < $1.opcode }
        latencies = samples.keys.sorted().map { opcode in
            let sorted = samples[opcode]!.sorted()
            func rank(_ fraction: Double) -> Int64 {
                sorted[max(0, Int((fraction * Double(sorted.count)).rounded(.up)) - 1)]
            }
            return Latency(
                opcode: opcode, count: sorted.count, minimumNanoseconds: sorted.first!, medianNanoseconds: rank(0.5),
                p90Nanoseconds: rank(0.9), maximumNanoseconds: sorted.last!
            )
        }
    }

    /// A table for people: one line per opcode with its counts and latencies in milliseconds (one decimal).
    ///
    /// Column widths come from the data, so long latencies (10 s and more) and large counts stay aligned; an opcode
    /// without a matched request leaves the latency columns empty.
    public func lines() -> [String] {
        let header = ["opcode", "requests", "responses", "pushes", "errors", "latency n", "min ms", "median ms",
                      "p90 ms", "max ms"]
        let latencyByOpcode = Dictionary(uniqueKeysWithValues: latencies.map { ($0.opcode, $0) })
        func milliseconds(_ nanoseconds: Int64) -> String {
            let tenths = (nanoseconds + 50_000) / 100_000
            return "\(tenths / 10).\(tenths % 10)"
        }
        var rows = [header]
        for count in opcodeCounts {
            var row = ["\(count.opcode)", "\(count.requests)", "\(count.responses)", "\(count.pushes)", "\(count.errors)"]
            if let latency = latencyByOpcode[count.opcode] {
                row += ["\(latency.count)", milliseconds(latency.minimumNanoseconds),
                        milliseconds(latency.medianNanoseconds), milliseconds(latency.p90Nanoseconds),
                        milliseconds(latency.maximumNanoseconds)]
            }
            rows.append(row)
        }
        let widths = header.indices.map { column in rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0 }
        var lines = rows.map { row in
            var line = ""
            for (column, cell) in row.enumerated() {
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                line += column == 0 ? cell + padding : "  " + padding + cell
            }
            return String(line.reversed().drop { $0 == " " }.reversed())
        }
        lines.append(
            "unanswered requests: \(unansweredRequestCount), unmatched responses: \(unmatchedResponseCount), "
                + "opcode mismatches: \(opcodeMismatchCount)")
        return lines
    }
}

import Foundation

/// Decrypts the TLS connections of a capture with a key log, through Wireshark's own TLS decryption: tshark is run
/// with `-o tls.keylog_file:KEYLOG`, and its "Follow TLS Stream" output (`-z follow,tls,yaml,STREAM`) gives the
/// application data of each connection, record by record, with the packet and capture time that completed each
/// record. SyncSim holds no TLS code; it only maps tshark's answer onto its own reassembled connections.
///
/// Two tshark passes: the first lists the TLS packets (`-Y tls -T fields`: stream, endpoints, record content types,
/// handshake types, negotiated version, client random), so each connection is matched to tshark's stream and
/// checked for decryption (a decrypted handshake shows its Finished message, handshake type 20, RFC 8446 §4.4.4);
/// the second follows the decrypted streams.
public struct TLSDecryption: Sendable {
    /// The NSS key log's path.
    public var keyLog: String
    /// tshark's path; nil looks for `tshark` on `PATH` (then /usr/bin, /usr/sbin).
    public var tshark: String?

    /// A decryption with the key log at `keyLog`, running `tshark` (nil: found on the PATH).
    public init(keyLog: String, tshark: String? = nil) {
        self.keyLog = keyLog
        self.tshark = tshark
    }

    /// Replaces the streams of every TLS connection of `trace` (see `TCPConnectionTrace.tlsRecordHeader`) by
    /// their decrypted application data and sets the connection's `tls`. Plain connections are left alone; a
    /// capture without TLS does not run tshark (the key log is checked all the same).
    /// - Throws: `TraceError` naming the capture: `.tlsKeyLog` when the key log is unreadable, not in NSS key log
    ///   format, or holds no keys for a TLS connection (naming the connection and its client random);
    ///   `.tshark` when tshark is not installed or fails.
    public func decrypt(_ trace: inout Trace) throws {
        do {
            _ = try TLSKeyLog.validate(path: keyLog)
        } catch let error as TLSKeyLog.FormatError {
            throw TraceError(.tlsKeyLog, file: trace.file, detail: "key log \(error)")
        }
        let tlsIndices = trace.connections.indices.filter { trace.connections[$0].tlsRecordHeader != nil }
        guard !tlsIndices.isEmpty else { return }
        let executable: String? =
            if let tshark { FileManager.default.isExecutableFile(atPath: tshark) ? tshark : nil } else {
                Self.locateTShark()
            }
        guard let executable else {
            throw TraceError(
                .tshark, file: trace.file,
                detail: "tshark not found \(tshark.map { "at \($0)" } ?? "on PATH"): --tls-keylog decrypts TLS "
                    + "through Wireshark's tshark; install it (`make deps`, or `apt-get install tshark`)")
        }
        // The key log, and TLS forced on the servers' ports: a port another dissector owns (or SyncSim's own
        // Wireshark plugin, on 5443) would otherwise not be read as TLS.
        let serverPorts = Set(tlsIndices.map { trace.connections[$0].server.port }).sorted()
        let keyOption = ["-o", "tls.keylog_file:" + keyLog] + serverPorts.flatMap { ["-d", "tcp.port==\($0),tls"] }
        let listing = try Self.run(
            executable,
            ["-n", "-r", trace.file] + keyOption + ["-Y", "tls", "-T", "fields", "-E", "separator=/t",
                "-E", "occurrence=a", "-E", "aggregator=,"] + Self.fields.flatMap { ["-e", $0] },
            file: trace.file)
        let packets = Self.parsePackets(listing)
        var packetsByNumber: [Int: Packet] = [:]
        for packet in packets { packetsByNumber[packet.number] = packet }

        // Each TLS connection's tshark stream, and whether the key log decrypted it.
        var streamOf: [Int: Int] = [:]  // connection index -> tshark stream
        var connectionOfStream: [Int: Int] = [:]
        var versions: [Int: String] = [:]
        for index in tlsIndices {
            let connection = trace.connections[index]
            let next = trace.connections[(index + 1)...].first {
                Set([$0.client, $0.server]) == Set([connection.client, connection.server])
            }?.firstPacketNumber ?? Int.max
            guard let first = packets.first(where: { packet in
                packet.number >= connection.firstPacketNumber && packet.number < next
                    && packet.matches(connection.client, connection.server)
            }) else {
                throw TraceError(
                    .tshark, file: trace.file,
                    detail: "tshark sees no TLS on connection \(connection.number) (\(connection.client) -> "
                        + "\(connection.server)), whose bytes start like a TLS record; it cannot be decrypted")
            }
            let rows = packets.filter { $0.stream == first.stream }
            guard rows.contains(where: { $0.handshakeTypes.contains(20) }) else {
                let random = rows.lazy.compactMap(\.clientRandom).first
                let sawServerHello = rows.contains { $0.handshakeTypes.contains(2) }
                let named = "connection \(connection.number) (\(connection.client) -> \(connection.server)"
                    + (random.map { ", client random \($0)" } ?? "") + ")"
                // Without the ClientHello (no client random) no key log can match, whatever it holds: a capture
                // that began between the ClientHello and the ServerHello was told "holds no key" before.
                let why = sawServerHello && random != nil
                    ? "holds no key for \(named): it stays encrypted; give the key log the client of this session "
                        + "wrote (SSLKEYLOGFILE)"
                    : "cannot decrypt \(named): the capture lacks its TLS handshake (ClientHello, ServerHello), "
                        + "which tshark needs to match the keys; was it taken after the connection started?"
                throw TraceError(.tlsKeyLog, file: trace.file, detail: "key log \(keyLog) \(why)")
            }
            streamOf[index] = first.stream
            connectionOfStream[first.stream] = index
            versions[index] = rows.lazy.compactMap(\.negotiatedVersion).first ?? "TLS"
        }

        let streams = streamOf.values.sorted()
        let follow = try Self.run(
            executable,
            ["-n", "-r", trace.file] + keyOption + ["-q"] + streams.flatMap { ["-z", "follow,tls,yaml,\($0)"] },
            file: trace.file)
        var plaintext: [Int: [TraceDirection: [ByteRun]]] = [:]
        var offsets: [Int: [TraceDirection: Int64]] = [:]
        for record in Self.parseFollow(follow).sorted(by: { $0.packet < $1.packet }) {
            guard let packet = packetsByNumber[record.packet], let index = connectionOfStream[packet.stream] else {
                throw TraceError(
                    .tshark, file: trace.file, packetNumber: record.packet,
                    detail: "tshark decrypted data at a packet that is not in a decrypted TLS connection")
            }
            let connection = trace.connections[index]
            let direction: TraceDirection =
                packet.source(is: connection.client) ? .clientToServer : .serverToClient
            let offset = offsets[index, default: [:]][direction, default: 0]
            var runs = plaintext[index, default: [:]][direction, default: []]
            if var last = runs.last, last.packetNumber == record.packet {
                last.bytes += record.bytes
                runs[runs.count - 1] = last
            } else {
                runs.append(ByteRun(offset: offset, bytes: record.bytes, timestamp: record.timestamp,
                                    packetNumber: record.packet))
            }
            plaintext[index, default: [:]][direction] = runs
            offsets[index, default: [:]][direction] = offset + Int64(record.bytes.count)
        }

        for index in tlsIndices {
            var connection = trace.connections[index]
            connection.tls = TLSSession(
                version: versions[index] ?? "TLS", keyLog: keyLog,
                ciphertextClientToServer: connection.clientToServer,
                ciphertextServerToClient: connection.serverToClient)
            connection.clientToServer.pieces = Self.pieces(
                plaintext[index]?[.clientToServer] ?? [], ciphertext: connection.clientToServer)
            connection.serverToClient.pieces = Self.pieces(
                plaintext[index]?[.serverToClient] ?? [], ciphertext: connection.serverToClient)
            trace.connections[index] = connection
        }
    }

    /// The decrypted stream: the application data runs, with a gap (`.notCaptured`: the capture missed the
    /// encrypted bytes) where the encrypted bytes had one. TLS records are sequence-numbered, so decryption usually
    /// stops at the first missing record; without the gap the frames after it would be lost without a word. Records
    /// decrypted after a gap (completed by a packet at or after the first data the capture holds past it) follow
    /// the gap. A gap's length counts encrypted bytes (the plaintext's is unknown): the gap's own, or everything
    /// from it to the stream's end when nothing decrypted after it.
    static func pieces(_ runs: [ByteRun], ciphertext: TCPStreamTrace) -> [StreamPiece] {
        var pieces: [StreamPiece] = []
        var offset: Int64 = 0
        var remaining = runs[...]
        func append(_ run: ByteRun) {
            var run = run
            run.offset = offset
            offset += Int64(run.bytes.count)
            pieces.append(.data(run))
        }
        let end = ciphertext.pieces.last?.endOffset ?? 0
        for gap in ciphertext.gaps {
            let resume = ciphertext.runs.first { $0.offset >= gap.endOffset }?.packetNumber
            while let run = remaining.first, resume.map({ run.packetNumber < $0 }) ?? true {
                append(run)
                remaining = remaining.dropFirst()
            }
            let length = remaining.isEmpty ? end - gap.offset : gap.length
            pieces.append(.gap(StreamGap(
                offset: offset, length: length, cause: .notCaptured, packetNumber: gap.packetNumber,
                timestamp: gap.timestamp)))
            offset += length
            if remaining.isEmpty { break }
        }
        remaining.forEach(append)
        return pieces
    }

    // MARK: - tshark

    /// tshark's path: `tshark` in a `PATH` directory, then /usr/bin and /usr/sbin; nil when none is executable.
    public static func locateTShark(path: String? = ProcessInfo.processInfo.environment["PATH"]) -> String? {
        let directories = (path ?? "").split(separator: ":").map(String.init) + ["/usr/bin", "/usr/sbin"]
        return directories.map { $0 + "/tshark" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs tshark with `arguments`; standard output and error go through temporary files (a capture's output
    /// can exceed a pipe's buffer).
    /// - Returns: standard output.
    /// - Throws: `TraceError(.tshark)` when it cannot start or exits non-zero, with the end of its error output.
    static func run(_ executable: String, _ arguments: [String], file: String) throws -> String {
        let directory = FileManager.default.temporaryDirectory
        let stamp = UUID().uuidString
        let outURL = directory.appendingPathComponent("syncsim-tshark-\(stamp).out")
        let errURL = directory.appendingPathComponent("syncsim-tshark-\(stamp).err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: outURL)
            try? FileManager.default.removeItem(at: errURL)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        do {
            let out = try FileHandle(forWritingTo: outURL)
            let err = try FileHandle(forWritingTo: errURL)
            defer {
                try? out.close()
                try? err.close()
            }
            process.standardOutput = out
            process.standardError = err
            process.standardInput = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
        } catch {
            throw TraceError(.tshark, file: file, detail: "cannot run \(executable): \(error)")
        }
        let output = (try? String(contentsOf: outURL, encoding: .utf8)) ?? ""
        guard process.terminationStatus == 0 else {
            let errors = ((try? String(contentsOf: errURL, encoding: .utf8)) ?? "")
                .split(separator: "\n").filter { !$0.hasPrefix("Running as user") }.suffix(3)
                .joined(separator: " / ")
            throw TraceError(
                .tshark, file: file,
                detail: "\(executable) exited with status \(process.terminationStatus): \(errors)")
        }
        return output
    }

    /// The fields of the first pass, in output column order.
    static let fields = [
        "frame.number", "tcp.stream", "ip.src", "ipv6.src", "tcp.srcport", "ip.dst", "ipv6.dst", "tcp.dstport",
        "tls.handshake.type", "tls.handshake.extensions.supported_version", "tls.handshake.version",
        "tls.handshake.random",
    ]

    /// One TLS packet as the first pass lists it.
    struct Packet: Hashable {
        var number: Int
        var stream: Int
        var source: String
        var sourcePort: UInt16
        var destination: String
        var destinationPort: UInt16
        /// Handshake message types tshark read (with the keys: the encrypted ones too).
        var handshakeTypes: [Int]
        /// `TLS 1.3` etc. when this packet holds the ServerHello.
        var negotiatedVersion: String?
        /// The ClientHello's random (hex) when this packet holds it: what a key log line is keyed by.
        var clientRandom: String?

        func matches(_ a: TCPEndpoint, _ b: TCPEndpoint) -> Bool {
            (source(is: a) && destination(is: b)) || (source(is: b) && destination(is: a))
        }

        func source(is endpoint: TCPEndpoint) -> Bool {
            sourcePort == endpoint.port && source == "\(endpoint.address)"
        }

        func destination(is endpoint: TCPEndpoint) -> Bool {
            destinationPort == endpoint.port && destination == "\(endpoint.address)"
        }
    }

    /// Parses the first pass's tab-separated lines (see `fields`); lines that do not parse are left out.
    static func parsePackets(_ text: String) -> [Packet] {
        text.split(separator: "\n").compactMap { line in
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard columns.count >= fields.count, let number = Int(columns[0]), let stream = Int(columns[1]),
                let sourcePort = UInt16(columns[4].split(separator: ",").first ?? ""),
                let destinationPort = UInt16(columns[7].split(separator: ",").first ?? "")
            else { return nil }
            func first(_ column: String) -> String { column.split(separator: ",").first.map(String.init) ?? "" }
            let types = columns[8].split(separator: ",").compactMap { Int($0) }
            let clientHelloAt = types.firstIndex(of: 1)
            let randoms = columns[11].split(separator: ",").map { $0.replacingOccurrences(of: ":", with: "") }
            var version: String?
            if types.contains(2) {
                let selected = first(columns[9]).isEmpty ? first(columns[10]) : first(columns[9])
                version = Self.versionName(selected)
            }
            return Packet(
                number: number, stream: stream,
                source: columns[2].isEmpty ? first(columns[3]) : first(columns[2]), sourcePort: sourcePort,
                destination: columns[5].isEmpty ? first(columns[6]) : first(columns[5]),
                destinationPort: destinationPort, handshakeTypes: types, negotiatedVersion: version,
                clientRandom: clientHelloAt != nil ? randoms.first : nil)
        }
    }

    /// `0x0304` -> `TLS 1.3`, `0x0303` -> `TLS 1.2`, ... (RFC 8446 §4.2.1, RFC 5246 §6.2.1).
    static func versionName(_ hex: String) -> String? {
        switch hex.lowercased() {
        case "0x0304": "TLS 1.3"
        case "0x0303": "TLS 1.2"
        case "0x0302": "TLS 1.1"
        case "0x0301": "TLS 1.0"
        default: nil
        }
    }

    /// One decrypted TLS record's application data, as tshark's follow output lists it.
    struct FollowRecord: Hashable {
        var packet: Int
        var timestamp: CaptureTimestamp
        var bytes: [UInt8]
    }

    /// Parses tshark's `-z follow,tls,yaml,N` blocks: `- packet: N`, `timestamp: S.F`, `data: !!binary |`
    /// followed by base64 lines. Records without data are left out.
    static func parseFollow(_ text: String) -> [FollowRecord] {
        var records: [FollowRecord] = []
        var packet: Int?
        var timestamp = CaptureTimestamp(nanosecondsSinceEpoch: 0)
        var base64: String?
        func flush() {
            if let packet, let base64, let data = Data(base64Encoded: base64), !data.isEmpty {
                records.append(FollowRecord(packet: packet, timestamp: timestamp, bytes: [UInt8](data)))
            }
            packet = nil
            base64 = nil
        }
        for rawLine in text.split(separator: "\n") {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("- packet:") {
                flush()
                packet = Int(line.dropFirst("- packet:".count).trimmingCharacters(in: .whitespaces))
            } else if line.hasPrefix("timestamp:") {
                timestamp = Self.timestamp(line.dropFirst("timestamp:".count).trimmingCharacters(in: .whitespaces))
            } else if line.hasPrefix("data:") {
                base64 = ""
            } else if base64 != nil, rawLine.hasPrefix("      "), !line.contains(":") {
                base64! += line
            } else if base64 != nil {
                flush()
            }
        }
        flush()
        return records
    }

    /// `1796045528.819257021` -> a timestamp (up to nine fraction digits).
    static func timestamp(_ text: String) -> CaptureTimestamp {
        let parts = text.split(separator: ".", maxSplits: 1)
        let seconds = Int64(parts.first ?? "") ?? 0
        var fraction = parts.count > 1 ? String(parts[1].prefix(9)) : ""
        fraction += String(repeating: "0", count: 9 - fraction.count)
        return CaptureTimestamp(seconds: seconds, nanoseconds: Int64(fraction) ?? 0)
    }
}

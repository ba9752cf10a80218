import Foundation
import SyncSim
import SyncTrace
import Testing
@testable import SyncSimCLI

/// tools/wireshark/syncsim.lua under tshark agrees with `syncsim decode`: the same frames, completed by the same
/// packets, with the same cmd, seq and opcode. Skipped when tshark is not installed.
@Suite(.serialized) struct WiresharkDissectorTests {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    private static let plugin = root.appendingPathComponent("tools/wireshark/syncsim.lua").path

    /// tshark's path, or nil.
    private static let tshark: String? = {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        return (directories + ["/usr/bin", "/usr/sbin"]).map { $0 + "/tshark" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// One frame as both tools see it.
    private struct Frame: Hashable, Comparable, CustomStringConvertible {
        var packet: Int
        var cmd: Int
        var seq: Int
        var opcode: Int
        var description: String { "packet \(packet) cmd \(cmd) seq \(seq) opcode \(opcode)" }
        static func < (lhs: Frame, rhs: Frame) -> Bool {
            (lhs.packet, lhs.opcode, lhs.seq, lhs.cmd) < (rhs.packet, rhs.opcode, rhs.seq, rhs.cmd)
        }
    }

    /// The frames `syncsim decode CAPTURE` prints.
    private func decodedFrames(_ path: String, layout: String? = nil) throws -> [Frame] {
        let output = syncsim(["decode", path] + (layout.map { ["--layout", $0] } ?? []))
        #expect(output.code == 0, "\(output.err)")
        return try output.out.split(separator: "\n").compactMap { line -> Frame? in
            guard line.hasPrefix("{\"time\"") else { return nil }
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return Frame(packet: object["packet"] as! Int, cmd: object["cmd"] as! Int, seq: object["seq"] as! Int,
                         opcode: object["opcode"] as! Int)
        }.sorted()
    }

    /// The frames tshark with the plugin dissects, one `packet cmd,cmd seq,seq opcode,opcode` line per packet.
    private func tsharkFrames(
        _ tshark: String, _ path: String, filter: String = "syncsim", options: [String] = []
    ) throws -> [Frame] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tshark)
        // Segments after a hole wait for it, as SyncTrace's reassembler does (tshark's default hands them on).
        process.arguments = ["-o", "tcp.reassemble_out_of_order:TRUE", "-r", path, "-X", "lua_script:\(Self.plugin)", "-Y", filter, "-T", "fields",
                             "-e", "frame.number", "-e", "syncsim.cmd", "-e", "syncsim.seq", "-e", "syncsim.opcode",
                             "-E", "occurrence=a", "-E", "aggregator=,", "-E", "separator=/t"] + options
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        var frames: [Frame] = []
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard columns.count == 4, let packet = Int(columns[0]) else { continue }
            let cmds = columns[1].split(separator: ","), seqs = columns[2].split(separator: ","),
                opcodes = columns[3].split(separator: ",")
            #expect(cmds.count == seqs.count && seqs.count == opcodes.count, "\(line)")
            for index in cmds.indices {
                frames.append(Frame(packet: packet, cmd: Int(cmds[index])!, seq: Int(seqs[index])!,
                                    opcode: Int(opcodes[index])!))
            }
        }
        return frames.sorted()
    }

    @Test("a run's pcapng: tshark with the plugin dissects every frame as syncsim decode does",
          arguments: [("reconnect-during-send", "1"), ("photo-on-2g-link-drop", "21")])
    func runCapture(scenario: String, seed: String) throws {
        guard let tshark = Self.tshark else { return }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("syncsim-lua-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("run.pcapng").path
        let run = syncsim(["run", scenario, "--seed", seed, "--pcap", path])
        #expect(run.code == 0, "\(run.out)\(run.err)")
        let expected = try decodedFrames(path)
        #expect(expected.count > 5)
        #expect(try tsharkFrames(tshark, path) == expected)
    }

    @Test("the replay fixtures: tshark with the plugin dissects every frame as syncsim decode does",
          arguments: ["clock-skew-last-sync-seed1.pcapng", "offline-sends-in-order-seed341.pcapng"])
    func replayFixture(name: String) throws {
        guard let tshark = Self.tshark else { return }
        let path = Self.root.appendingPathComponent("Fixtures/replay/\(name)").path
        let expected = try decodedFrames(path)
        #expect(!expected.isEmpty)
        #expect(try tsharkFrames(tshark, path) == expected)
    }

    @Test("the Fixtures/wire streams, carried in 100-byte TCP segments: the same frames, LZ4 and cmd16 layout included",
          arguments: [("history-page-compressed", nil), ("login-response", nil), ("push-notif-message", nil),
                      ("unknown-opcode", nil), ("session-cmd16", "cmd16-seq8")] as [(String, String?)])
    func wireFixture(name: String, layout: String?) throws {
        guard let tshark = Self.tshark else { return }
        let stream = try [UInt8](Data(contentsOf: Self.root.appendingPathComponent("Fixtures/wire/\(name).bin")))
        var connection = SyntheticTCPConnection(
            client: TCPEndpoint(address: SyntheticTCPConnection.syntheticAddress(host: 3), port: 40_000),
            server: TCPEndpoint(address: SyntheticTCPConnection.syntheticAddress(host: 1), port: 5443), mss: 100)
        var writer = PcapngWriter(interfaces: [.init(name: "wire")])
        var time: Int64 = 1_700_000_000_000_000_000
        for packet in connection.open() + connection.send(stream, .serverToClient) {
            writer.append(packet, timestamp: CaptureTimestamp(nanosecondsSinceEpoch: time))
            time += 1_000_000
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("syncsim-wire-\(UUID().uuidString).pcapng").path
        try writer.write(to: path)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let expected = try decodedFrames(path, layout: layout)
        #expect(!expected.isEmpty)
        let options = layout.map { ["-o", "syncsim.layout:\($0)"] } ?? []
        #expect(try tsharkFrames(tshark, path, options: options) == expected)
    }

    @Test("display filters select by opcode, seq and cmd")
    func filters() throws {
        guard let tshark = Self.tshark else { return }
        let path = Self.root.appendingPathComponent("Fixtures/replay/offline-sends-in-order-seed341.pcapng").path
        let all = try tsharkFrames(tshark, path)
        let sends = try tsharkFrames(tshark, path, filter: "syncsim.opcode == 64 && syncsim.cmd == 0")
        #expect(!sends.isEmpty)
        #expect(Set(sends.map(\.packet)) == Set(all.filter { $0.opcode == 64 && $0.cmd == 0 }.map(\.packet)))
        let seq = try #require(sends.first?.seq)
        let bySeq = try tsharkFrames(tshark, path, filter: "syncsim.seq == \(seq)")
        #expect(Set(bySeq.map(\.packet)) == Set(all.filter { $0.seq == seq }.map(\.packet)))
    }

    @Test("an LZ4 payload is decompressed in Lua and shown as a MessagePack tree")
    func lz4Tree() throws {
        guard let tshark = Self.tshark else { return }
        let stream = try [UInt8](Data(contentsOf: Self.root.appendingPathComponent("Fixtures/wire/history-page-compressed.bin")))
        var connection = SyntheticTCPConnection(
            client: TCPEndpoint(address: SyntheticTCPConnection.syntheticAddress(host: 3), port: 40_000),
            server: TCPEndpoint(address: SyntheticTCPConnection.syntheticAddress(host: 1), port: 5443))
        var writer = PcapngWriter(interfaces: [.init(name: "wire")])
        for (index, packet) in (connection.open() + connection.send(stream, .serverToClient)).enumerated() {
            writer.append(packet, timestamp: CaptureTimestamp(nanosecondsSinceEpoch: Int64(index) * 1_000_000))
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("syncsim-lz4-\(UUID().uuidString).pcapng").path
        try writer.write(to: path)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tshark)
        process.arguments = ["-r", path, "-X", "lua_script:\(Self.plugin)", "-Y", "syncsim", "-O", "syncsim", "-V"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(text.contains("Compression: LZ4 block"), "\(text)")
        #expect(text.contains("Payload length decompressed: "))
        #expect(text.contains("payload: map ("))
        #expect(text.contains("messages: array ("))
        #expect(!text.contains("Malformed"))
    }
}

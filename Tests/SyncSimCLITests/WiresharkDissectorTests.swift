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

    /// The environment with HOME in an empty folder, so tshark loads this checkout's plugin, not an installed copy
    /// (`make wireshark-plugin`), and no personal preferences.
    private static let isolatedEnvironment: [String: String] = {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("syncsim-tshark-home-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = home.path
        return environment
    }()

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
        process.environment = Self.isolatedEnvironment
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

    /// The captures in Fixtures/replay (written by `syncsim run --pcap`).
    static let replayCaptures: [String] = {
        let directory = root.appendingPathComponent("Fixtures/replay")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".pcapng") }.sorted()
    }()

    /// Every golden vector of Fixtures/wire: a `.bin` stream with the `.jsonl` lines `decode` prints for it (the
    /// streams that end in a fault have no `.jsonl`). A name with `cmd16` uses the cmd16-seq8 layout.
    static let wireVectors: [String] = {
        let directory = root.appendingPathComponent("Fixtures/wire")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".jsonl") }.map { String($0.dropLast(6)) }
            .filter { names.contains($0 + ".bin") }.sorted()
    }()

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

    /// With permessage-deflate agreed (the second capture), Wireshark inflates each message before the plugin.
    @Test("over WebSocket: tshark's WebSocket dissector hands each binary message to the plugin, as decode reads it",
          arguments: [
              ("pymax-webclient.pcap", 7431), ("pymax-webclient-deflate.pcap", 7432),
          ])
    func webSocketCapture(name: String, port: Int) throws {
        guard let tshark = Self.tshark else { return }
        let path = Self.root.appendingPathComponent("Fixtures/websocket/\(name)").path
        // Connection 1 (packets 1-22) is PyMax 2.5.0's binary messages; connection 2's JSON text goes to
        // Wireshark's own JSON dissector.
        let expected = try decodedFrames(path).filter { $0.packet <= 22 }
        #expect(expected.count == 10)
        #expect(try tsharkFrames(tshark, path, options: ["-d", "tcp.port==\(port),http"]) == expected)
    }

    @Test("the replay fixtures: tshark with the plugin dissects every frame as syncsim decode does",
          arguments: replayCaptures)
    func replayFixture(name: String) throws {
        guard let tshark = Self.tshark else { return }
        let path = Self.root.appendingPathComponent("Fixtures/replay/\(name)").path
        let expected = try decodedFrames(path)
        #expect(!expected.isEmpty)
        #expect(try tsharkFrames(tshark, path) == expected)
    }

    @Test("the Fixtures/wire streams, carried in 100-byte TCP segments: the same frames, LZ4 and cmd16 layout included",
          arguments: wireVectors)
    func wireFixture(name: String) throws {
        guard let tshark = Self.tshark else { return }
        let layout: String? = name.contains("cmd16") ? "cmd16-seq8" : nil
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
        let path = Self.root.appendingPathComponent("Fixtures/replay/\(try #require(Self.replayCaptures.last))").path
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
        process.environment = Self.isolatedEnvironment
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(text.contains("Compression: LZ4 block"), "\(text)")
        #expect(text.contains("Payload length decompressed: "))
        #expect(text.contains("payload: map ("))
        #expect(text.contains("messages: array ("))
        #expect(!text.contains("Malformed"))
    }

    @Test("a zstd payload (flag 0xFF) is shown as zstd, and the frame after it is still dissected")
    func zstdPayload() throws {
        guard let tshark = Self.tshark else { return }
        // CHAT_HISTORY response seq 7, flag 0xFF, 8 payload bytes starting with the zstd magic number; then a PING.
        let zstd: [UInt8] = [10, 1, 0, 7, 0, 49, 0xFF, 0, 0, 8, 0x28, 0xB5, 0x2F, 0xFD, 0, 0, 0, 0]
        let ping: [UInt8] = [10, 1, 0, 8, 0, 1, 0, 0, 0, 1, 0x80]
        var connection = SyntheticTCPConnection(
            client: TCPEndpoint(address: SyntheticTCPConnection.syntheticAddress(host: 3), port: 40_000),
            server: TCPEndpoint(address: SyntheticTCPConnection.syntheticAddress(host: 1), port: 5443))
        var writer = PcapngWriter(interfaces: [.init(name: "wire")])
        for (index, packet) in (connection.open() + connection.send(zstd + ping, .serverToClient)).enumerated() {
            writer.append(packet, timestamp: CaptureTimestamp(nanosecondsSinceEpoch: Int64(index) * 1_000_000))
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("syncsim-zstd-\(UUID().uuidString).pcapng").path
        try writer.write(to: path)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tshark)
        process.arguments = ["-r", path, "-X", "lua_script:\(Self.plugin)", "-Y", "syncsim", "-O", "syncsim", "-V"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.environment = Self.isolatedEnvironment
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(text.contains("Compression flag: 0xff"), "\(text)")
        #expect(text.contains("Compression: zstd"))
        #expect(text.contains("zstd payload (not decompressed by the Lua dissector)"))
        #expect(text.contains("CHAT_HISTORY response, seq 7"))
        #expect(text.contains("PING response, seq 8"))
    }

    @Test("the dissector's opcode names are the protocol's: every named opcode, nothing else")
    func opcodeNames() throws {
        let lua = try String(contentsOfFile: Self.plugin, encoding: .utf8)
        let table = lua.components(separatedBy: "local opcode_names = {")[1].components(separatedBy: "\n}")[0]
        let entries = table.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let expected = (0...UInt16(4_096)).compactMap { raw in Opcode(rawValue: raw).name.map { "[\(raw)] = \"\($0)\"," } }
        #expect(entries == expected)
    }
}

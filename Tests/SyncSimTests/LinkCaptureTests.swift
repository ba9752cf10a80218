import Foundation
import Scenarios
import SyncTrace
import Testing
@testable import SyncSim

@Suite struct LinkCaptureTests {
    static let tshark = ExternalTool.named("tshark")

    /// Runs a catalog scenario with the capture on. - Returns: the run's digest and the capture's bytes.
    static func capture(_ scenario: Scenario, seed: UInt64) throws -> (digest: UInt64, bytes: [UInt8]) {
        let world = try World(scenario: scenario, seed: seed)
        world.startCapture()
        let result = world.run()
        return (result.digest, world.capture?.bytes ?? [])
    }

    static func temporaryFile(_ bytes: [UInt8], name: String) throws -> String {
        let path = NSTemporaryDirectory() + "syncsim-\(name)-\(ProcessInfo.processInfo.processIdentifier).pcapng"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("capturing leaves the run unchanged, and our reader finds every connection with its frames")
    func captureReadsBack() throws {
        let plain = try World(scenario: Catalog.reconnectDuringSend, seed: 1).run()
        let (digest, bytes) = try Self.capture(Catalog.reconnectDuringSend, seed: 1)
        #expect(digest == plain.digest)
        let path = try Self.temporaryFile(bytes, name: "readback")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let decoding = try TraceDecoder().decode(path: path)
        #expect(decoding.trace.linkType == .ipv4)
        #expect(decoding.trace.skippedPacketCount == 0)
        #expect(decoding.connections.count >= 2)
        // The only bytes the tap may miss: the tail of a server->client stream the server closed while still
        // retransmitting into the dead link (its new LOGIN replaced that session; the segments never left it).
        #expect(decoding.connections.allSatisfy {
            $0.issues.allSatisfy { $0.kind == .gap } && $0.connection.clientToServer.gaps.isEmpty
        })
        let retransmitted = decoding.connections.map(\.connection.clientToServer.retransmittedSegmentCount)
        #expect(retransmitted.reduce(0, +) > 0, "the link drop causes retransmissions, and they are captured")
        let opcodes = Set(decoding.allFrames.map(\.opcode))
        #expect(opcodes.isSuperset(of: [.sessionInit, .login, .msgSend]))
    }

    @Test(
        "tshark reads the capture without warnings and reassembles the same payload bytes as our reader",
        .enabled(if: LinkCaptureTests.tshark != nil, "tshark is not installed (apt-get install tshark)")
    )
    func tsharkAgrees() throws {
        let tshark = try #require(Self.tshark)
        let (_, bytes) = try Self.capture(Catalog.reconnectDuringSend, seed: 1)
        let path = try Self.temporaryFile(bytes, name: "tshark")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let listing = try tshark.run(["-r", path])
        #expect(listing.status == 0)
        // tshark warns about running as root on its own; anything else on stderr is about the file.
        let warnings = listing.error.split(separator: "\n").filter { !$0.hasPrefix("Running as user") }
        #expect(warnings == [])
        #expect(!listing.output.contains("Malformed") && !listing.output.contains("Bogus"))

        let trace = try TraceReader.read(path: path)
        let follow = trace.connections.indices.flatMap { ["-z", "follow,tcp,raw,\($0)"] }
        let streams = try Self.followedStreams(tshark.run(["-r", path, "-q"] + follow).output)
        #expect(streams.count == trace.connections.count)
        for connection in trace.connections {
            let followed = try #require(streams[connection.client.description], "\(connection.client)")
            #expect(followed.clientToServer == connection.clientToServer.bytesIgnoringGaps, "\(connection.client)")
            #expect(followed.serverToClient == connection.serverToClient.bytesIgnoringGaps, "\(connection.client)")
        }
    }

    /// Parses `tshark -z follow,tcp,raw,N` output: per stream, node 0 (the client) and its bytes each way (lines
    /// from node 1 are indented with a tab).
    static func followedStreams(_ text: String) -> [String: (clientToServer: [UInt8], serverToClient: [UInt8])] {
        var result: [String: (clientToServer: [UInt8], serverToClient: [UInt8])] = [:]
        var client: String?
        var up: [UInt8] = []
        var down: [UInt8] = []
        func flush() {
            if let client { result[client] = (up, down) }
            client = nil
            up = []
            down = []
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            if line.hasPrefix("=====") {
                flush()
            } else if line.hasPrefix("Node 0: ") {
                client = String(line.dropFirst("Node 0: ".count))
            } else if line.hasPrefix("Follow:") || line.hasPrefix("Filter:") || line.hasPrefix("Node 1:") {
                continue
            } else if line.hasPrefix("\t") {
                down += hexBytes(line.dropFirst())
            } else if client != nil {
                up += hexBytes(line)
            }
        }
        flush()
        return result
    }

    static func hexBytes(_ text: Substring) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = text.startIndex
        while let next = text.index(index, offsetBy: 2, limitedBy: text.endIndex), index != text.endIndex {
            if let byte = UInt8(text[index..<next], radix: 16) { bytes.append(byte) }
            index = next
        }
        return bytes
    }
}

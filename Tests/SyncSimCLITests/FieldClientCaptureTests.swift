import SyncTrace
import Testing

@testable import SyncSimCLI

/// Fixtures/field-clients: whole sessions of MaxBridge 1.8.0 and python-max-client 1.0.2 against `syncsim serve`
/// (Fixtures/field-clients/README.md): uploads of files and videos over HTTP on serve's port, MaxBridge's downloads.
@Suite struct FieldClientCaptureTests {
    static let maxBridge = TraceDecodeCommandTests.fixture("field-clients/maxbridge-1.8.0-websocket-session.pcap")
    static let forkOfVkmax = TraceDecodeCommandTests.fixture(
        "field-clients/python-max-client-1.0.2-websocket-session.pcap")

    @Test("the uploads' POSTs and the downloads' GETs are HTTP connections, CDN transfers in the timeline")
    func decodes() throws {
        for (capture, requests) in [(Self.maxBridge, ["POST /upload?fileIds=1 HTTP/1.1", "GET /file/1 HTTP/1.1",
                                                      "POST /upload?videoIds=2 HTTP/1.1", "GET /video/2 HTTP/1.1"]),
                                    (Self.forkOfVkmax, ["POST /upload?photoIds=1 HTTP/1.1",
                                                        "POST /upload?fileIds=1 HTTP/1.1",
                                                        "POST /upload?videoIds=2 HTTP/1.1"])] {
            let decoding = try TraceDecoder().decode(path: capture)
            #expect(decoding.connections.compactMap(\.httpRequestLine) == requests)
            for connection in decoding.connections {
                #expect(connection.issues.isEmpty, "connection \(connection.connection.number): \(connection.issues)")
            }
            let timeline = ReplayTimeline(decoding)
            #expect(timeline.connections.filter { $0.role == .chat }.map(\.number) == [1, 2])
        }
    }

    /// Before: each MSG_SEND carrying a file or video was refused (the rebuilt server had no upload for its slot),
    /// and with it the FILE_DOWNLOAD and VIDEO_PLAY after it and the NOTIF_ATTACH pushes: 6 differences for MaxBridge.
    @Test("replayed against the server, every answer agrees: slots are renumbered and count as uploaded",
          arguments: [(maxBridge, 22, 6), (forkOfVkmax, 27, 5)])
    func replays(capture: String, requests: Int, connections: Int) {
        let server = TraceDecodeCommandTests.run(["replay", capture, "--against", "server"])
        #expect(server.code == 0, "\(server.out)")
        #expect(server.out.last?.hasPrefix("replayed \(requests) requests on \(connections) connections against the "
                                           + "server: \(requests) answers compared, 0 differences;") == true,
                "\(server.out)")
    }

    /// Session 38's capture trial: the client's address was cut at its first colon, so every IPv6 client was "[":
    /// one client instead of two, the chat with alice alone, app restarts made up, and `--client '[::1]#2'` unknown.
    @Test("an IPv6 capture names its clients as the same traffic over IPv4 does", arguments: ["7403", "7404"])
    func ipv6Clients(port: String) {
        let capture = TraceDecodeCommandTests.fixture("field-clients/pymax-2.5.0-ipv6-relay-session.pcap")
        let emission = TraceDecodeCommandTests.run(["replay", capture, "--port", port, "--emit-scenario", "Relay"])
        #expect(emission.code == 0, "\(emission.out)")
        let address = port == "7404" ? "[::1]" : "127.0.0.1"
        #expect(emission.out.contains { $0.hasPrefix("// alice (\(address)#1): WiFi") })
        #expect(emission.out.contains { $0.hasPrefix("// bob (\(address)#2): WiFi") })
        #expect(emission.out.contains("    Server(history: [\"alice+bob\": 60])"))
        #expect(emission.out.filter { $0.hasPrefix("    Client(") } == [
            "    Client(\"alice\", profile: .wifi, parameters: [\"initialSeq\": 0])",
            "    Client(\"bob\", profile: .wifi, parameters: [\"initialSeq\": 0])",
        ])
        let client = TraceDecodeCommandTests.run(["replay", capture, "--port", port, "--against", "client",
                                                  "--client", "\(address)#2"])
        #expect(client.code == 0, "\(client.out)")
        #expect(client.out.last?.hasPrefix("replayed 11 server frames on 2 connections to bob") == true, "\(client.out)")
    }

    @Test("the emitted scenario says which attachments the DSL cannot send")
    func emitsNotes() {
        let emission = TraceDecodeCommandTests.run(["replay", Self.forkOfVkmax, "--emit-scenario", "ForkSession"])
        #expect(emission.code == 0)
        #expect(emission.out.contains {
            $0.hasPrefix("// not placed: ") && $0.contains("the FILE, VIDEO attachments of MSG_SEND \"three attachments\"")
        })
    }
}

import SyncSim
import Testing
@testable import SyncSimCLI

@Suite struct ServeCommandTests {
    @Test("serve names its scenario with --scenario and its link profile with --profile", arguments: [
        (["serve", "--port", "0", "--profile", "reconnect-during-send"],
         "--profile takes a link profile (2G-rural, GPRS, EDGE, EDGE-lossy, 3G, 4G, WiFi); name the scenario with --scenario reconnect-during-send"),
        (["serve", "--port", "0", "--profile", "5G"], "unknown --profile '5G'; profiles: 2G-rural, GPRS,"),
        (["serve", "--port", "0", "--profile", "offline"], "--profile offline carries no traffic"),
        (["serve", "--port", "0", "--scenario", "nope"], "unknown --scenario 'nope'"),
    ])
    func options(arguments: [String], message: String) {
        let output = syncsim(arguments)
        #expect(output.code == ExitCode.usage)
        #expect(output.err.contains(message), "\(output.err)")
    }

    @Test("--profile is case-insensitive and gives the catalog profile")
    func profileLookup() throws {
        #expect(try ServeCommand.linkProfile(named: "edge").name == "EDGE")
    }

    @Test("control lines: drop and drop USER_ID; a user given by name or extra words is no control line")
    func controlLines() {
        #expect(ControlLine("drop") == .dropAll)
        #expect(ControlLine("drop 2") == .dropUser(2))
        #expect(ControlLine("drop  2") == .dropUser(2))
        #expect(ControlLine("drop alice") == .dropUserNamed("alice"))  // once read as `drop`: every connection dropped
        #expect(ControlLine("drop 1 2") == nil)
        #expect(ControlLine("dropx") == nil)
        #expect(ControlLine("") == nil)
    }

    @Test("a shaper serializes bursts at the rate behind each other, then adds the one-way delay")
    func shaper() {
        // GPRS downlink: 50 kbit/s, 500 ms one way (DESIGN.md §5).
        var shaper = LinkShaper(direction: LinkProfile.gprs.downlink)
        let overhead = LinkProfile.gprs.downlink.perPacketOverheadBytes
        let bytes = 625 - overhead  // 5,000 bits with the overhead: 100 ms at 50 kbit/s
        let first = shaper.arrival(ofBytes: bytes, at: .start)
        #expect(first == .start + .milliseconds(100) + LinkProfile.gprs.downlink.oneWayDelay)
        let second = shaper.arrival(ofBytes: bytes, at: .start + .milliseconds(50))
        #expect(second == first + .milliseconds(100))
        let later = shaper.arrival(ofBytes: bytes, at: .start + .seconds(10))
        #expect(later == .start + .seconds(10) + .milliseconds(100) + LinkProfile.gprs.downlink.oneWayDelay)
    }
}

import Foundation
import SimCore
import SyncSim
import Testing

@testable import SyncSimCLI

/// Round trips of catalog scenarios that the emitter got wrong when the catalog grew (session 20's remeasure of
/// docs/roundtrip.md: 12 emitted scenarios failed or did not run with the reference engine).
extension RoundTripTests {
    @Test("a user on two addresses is a client and a second device, not two clients of one name")
    func secondDevice() throws {
        let path = try Self.capture("tablet-photos-phone-scrolls", seed: 1)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let emission = try Self.emitted(from: path)
        let scenario = emission.scenario
        #expect(scenario.clients.map(\.name) == ["alice", "bob", "alice:device2"])
        #expect(scenario.clients.map(\.user) == [nil, nil, "alice"])
        #expect(emission.source().contains("Device(\"alice\", \"device2\", profile: .twoGRural)"))
        #expect(scenario.steps.contains {
            if case .sendText("alice:device2", _, "see album") = $0.action { true } else { false }
        })
        #expect(!Self.fails(scenario, seed: 1, mutant: nil))
    }

    @Test("a chat no LOGIN or CHATS_LIST answer listed gets its members from the pushes and marks seen in it")
    func chatSeenOnlyThroughPushes() throws {
        let path = try Self.capture("catch-up-chat-changed-during-pages", seed: 703_138)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let emission = try Self.emitted(from: path)
        #expect(!emission.source().contains("members: []"))
        #expect(emission.scenario.steps.contains {
            if case .editMessage("carol", "bob+carol", "e327") = $0.action { true } else { false }
        })
        #expect(!Self.fails(emission.scenario, seed: 1, mutant: nil))
    }

    @Test("a capture of a day and a half runs a day and a half: its expectations are not checked after an hour")
    func longCaptureRunsItsLength() throws {
        let path = try Self.capture("day-offline-slow-2g-bursts", seed: 1)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let emission = try Self.emitted(from: path)
        #expect(emission.scenario.runLength >= .hours(36))
        #expect(!Self.fails(emission.scenario, seed: 1, mutant: nil))
        #expect(ReplayScenarioEmitter.longestRun == .hours(7 * 24))
    }

    /// Alice's phone sends q1 at 16 s into a link that died at 15 s; the server never acknowledges it. The outage
    /// used to start 30% of an RTT after the send, by when the link had sent it, so it arrived and was stored: the
    /// emitted edits of "alice's newest message" then changed q1 and the server never had it.
    @Test("a stalled request the server never acknowledged was lost: the outage starts before it, not after")
    func unacknowledgedRequestLost() throws {
        let path = try Self.capture("edits-while-queue-offline-crash", seed: 1)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let emission = try Self.emitted(from: path)
        let outage = try #require(emission.scenario.steps.first {
            if case .outage("alice", _, _) = $0.action { true } else { false }
        })
        #expect(outage.timing == .at(.milliseconds(15_999)))
        #expect(!Self.fails(emission.scenario, seed: 1, mutant: nil))
    }
}

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

    /// The capture shows a three-photo MSG_SEND; the original checks `Always(.photosComplete)`, and the emitted
    /// scenario had no such check, so `send-before-all-uploads` (the message goes out after its first upload) passed it.
    @Test("a multi-photo send the capture shows is checked to carry all its photos")
    func photoSendCheckedWhole() throws {
        let path = try Self.capture("tablet-photos-phone-scrolls", seed: 1)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let emission = try Self.emitted(from: path)
        #expect(emission.scenario.expectations.always.map(\.condition)
                == [.photosComplete(chat: "alice+bob", caption: "album", photos: 3)])
        #expect(emission.source().contains("Always(.photosComplete(chat: \"alice+bob\", caption: \"album\", photos: 3))"))
        #expect(!Self.fails(emission.scenario, seed: 1, mutant: nil))
        #expect(Self.fails(emission.scenario, seed: 1, mutant: "send-before-all-uploads"))
    }

    @Test("a caption also sent as a text, with another photo count, or empty gets no photosComplete check")
    func photoChecksOnlyForOneCount() {
        let checks = ReplayScenarioEmitter.photosComplete([
            "a+b": ["album": [3], "mixed": [2, 3], "also text": [2, 0], "": [2], "one": [1]],
            "a+c": ["trip": [2, 2]],
        ])
        #expect(checks.map(\.condition) == [.photosComplete(chat: "a+b", caption: "album", photos: 3),
                                            .photosComplete(chat: "a+c", caption: "trip", photos: 2)])
    }

    /// Bob and the others post 200 messages from devices the capture does not show while alice is offline for three
    /// hours. The emitter seeded them all as history from before the run, which alice could have had cached, so her
    /// login after the outage met no gap and `gap-ignored-after-login` and `merge-skips-bridge` passed.
    @Test("a message first seen in a push and sent by no captured MSG_SEND is posted from another device then")
    func pushedFirstIsPostedLive() throws {
        let path = try Self.capture("hours-offline-small-login", seed: 1)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let emission = try Self.emitted(from: path)
        let scenario = emission.scenario
        let posts = scenario.steps.filter {
            if case .postFromOtherDevice = $0.action { true } else { false }
        }
        #expect(posts.count == 200)
        #expect(posts.first?.timing == .at(.milliseconds(600_075)))
        if case .postFromOtherDevice(let client, let chat, let text)? = posts.first?.action {
            #expect([client, chat, text] == ["bob", "alice+bob", "bob 0"])
        }
        // What was there before the run stays history: alice+bob's 50, none of frank's.
        #expect(scenario.server.history.first { $0.chat == "alice+bob" }?.messages == 50)
        #expect(!scenario.server.history.contains { $0.chat == "alice+frank" })
        #expect(!Self.fails(scenario, seed: 1, mutant: nil))
        #expect(Self.fails(scenario, seed: 1, mutant: "gap-ignored-after-login"))
        #expect(Self.fails(scenario, seed: 1, mutant: "merge-skips-bridge"))
    }

    /// Alice's m14 timed out once (maxTaskAttempts 1 in the original) while the server held it 34.6 s, and m73 went
    /// next and was stored first. The emitted run gave alice the default ten attempts, so m14 was tried again, and its
    /// DelayResponses window (one 2 ms RTT from 1 ms before the request) closed as the request arrived: m14 was stored
    /// first, against the capture's order, and the emitted scenario failed with the reference engine.
    @Test("a send given up after a timed-out attempt sets maxTaskAttempts; a delay window outlasts a WiFi RTT")
    func givenUpSendReplayed() throws {
        let path = try Self.capture("explore-given-up-send-stored-late", seed: 945_194)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let scenario = try Self.emitted(from: path).scenario
        #expect(scenario.clients.first { $0.name == "alice" }?.parameters["maxTaskAttempts"] == .int(1))
        #expect(scenario.clients.first { $0.name == "bob" }?.parameters["maxTaskAttempts"] == nil)
        #expect(scenario.steps.contains {
            if case .delayResponses(.msgSend, _, let window, nil) = $0.action { window == .milliseconds(4) } else { false }
        })
        #expect(!Self.fails(scenario, seed: 945_194, mutant: nil))
        #expect(Self.fails(scenario, seed: 945_194, mutant: "resend-new-cid"))
        #expect(ReplayInference.arrivalWindow(.milliseconds(201)) == .milliseconds(203))
    }
}

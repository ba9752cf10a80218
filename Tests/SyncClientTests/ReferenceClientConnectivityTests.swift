import SimCore
import Testing
@testable import SyncClient

/// `ClientEvent.connectivityChanged`: no attempts while the OS reports no network, a fresh attempt at once when it
/// is back.
@Suite struct ReferenceClientConnectivityTests {
    private func engine() throws -> ReferenceClient {
        ReferenceClient(parameters: ClientParameters(token: "t"), database: try SQLiteDatabase(),
                        generator: SeededGenerator(seed: 1))
    }

    private func connects(_ actions: [ClientAction]) -> [ClientConnectionID] {
        actions.compactMap { if case .connect(let connection) = $0 { connection } else { nil } }
    }

    private func timers(_ actions: [ClientAction]) -> [ClientTimerID] {
        actions.compactMap { if case .startTimer(let timer, _) = $0 { timer } else { nil } }
    }

    @Test("lost closes the attempt and stops reconnecting; restored connects at once")
    func lostThenRestored() throws {
        var client = try engine()
        let first = connects(client.handle(.start, now: .start))
        #expect(first.count == 1)
        let lost = client.handle(.connectivityChanged(isAvailable: false), now: .start + .seconds(Int64(1)))
        #expect(lost.contains(.close(first[0])))
        // The reconnect timer fires while the network is gone: no attempt.
        for timer in timers(lost) {
            #expect(connects(client.handle(.timerFired(timer), now: .start + .seconds(Int64(60)))).isEmpty)
        }
        let restored = client.handle(.connectivityChanged(isAvailable: true), now: .start + .seconds(Int64(61)))
        #expect(connects(restored).count == 1)
    }

    @Test("restored during an attempt made without network abandons it and starts a fresh one")
    func restoredWhileConnecting() throws {
        var client = try engine()
        let first = connects(client.handle(.start, now: .start))
        let restored = client.handle(.connectivityChanged(isAvailable: true), now: .start + .seconds(Int64(3)))
        #expect(restored.contains(.close(first[0])))
        #expect(connects(restored).count == 1 && connects(restored) != first)
    }
}

import SimCore
import SyncProtocol
import Testing
@testable import SyncClient

/// A handshake request (SESSION_INIT, LOGIN) that timed out doubles the next handshake request's timeout, up to four
/// times `requestTimeout`, until a LOGIN is answered (found by hand-written field sequences, field17: a server 3 s
/// slow plus up to 2 s of jitter against a 4 s request timeout; each timed-out handshake dropped the connection and the
/// next asked again under the same 4 s, so the client was seldom logged in and four sends waited 20 minutes).
@Suite struct ReferenceClientHandshakeTimeoutTests {
    /// The timeout timer the last step started for a request: the one due `within` from now.
    private func timeoutTimer(_ client: EngineDriver, within timeout: SimDuration) -> ClientTimerID? {
        client.timersStarted.first { $0.at == client.now + timeout }?.timer
    }

    /// Fires the reconnect timer the last step started and connects; returns the connection.
    private func reconnect(_ client: inout EngineDriver) throws -> ClientConnectionID {
        let timer = try #require(client.timersStarted.last).timer
        client.step(.timerFired(timer))
        return client.connect()
    }

    @Test("timed-out handshake requests give the next ones 8 s, then 16 s (the cap); a LOGIN answer resets to 4 s")
    func handshakeTimeoutBacksOff() throws {
        var parameters = ClientParameters(token: "t")
        parameters.requestTimeout = .seconds(Int64(4))
        var client = try EngineDriver(parameters: parameters)
        // First connection: SESSION_INIT answered, the LOGIN times out after 4 s.
        let first = client.connect()
        #expect(timeoutTimer(client, within: .seconds(Int64(4))) != nil)
        _ = client.logIn(first)
        client.step(.timerFired(try #require(timeoutTimer(client, within: .seconds(Int64(4))))))
        // Second: both handshake requests wait 8 s; the SESSION_INIT times out.
        let second = try reconnect(&client)
        _ = second
        let sessionInit = try #require(timeoutTimer(client, within: .seconds(Int64(8))))
        client.step(.timerFired(sessionInit))
        // Third and fourth: 16 s, and no more.
        _ = try reconnect(&client)
        client.step(.timerFired(try #require(timeoutTimer(client, within: .seconds(Int64(16))))))
        let fourth = try reconnect(&client)
        #expect(timeoutTimer(client, within: .seconds(Int64(16))) != nil)
        // A LOGIN answered in time: the next connection's handshake is back at 4 s.
        let login = client.logIn(fourth)
        #expect(timeoutTimer(client, within: .seconds(Int64(16))) != nil)
        client.receive(Packet(cmd: .response, seq: login.seq, opcode: .login, body: .loginResponse(
            LoginResponse(profile: Profile(id: 1, name: "alice"), chats: [], contacts: [], time: 2_000))),
            on: fourth)
        #expect(client.engine.view.isOnline)
        client.step(.disconnected(fourth))
        _ = try reconnect(&client)
        #expect(timeoutTimer(client, within: .seconds(Int64(4))) != nil)
    }

    @Test("requests after LOGIN keep requestTimeout while handshakes back off")
    func otherRequestsKeepTheirTimeout() throws {
        var parameters = ClientParameters(token: "t")
        parameters.requestTimeout = .seconds(Int64(4))
        var client = try EngineDriver(parameters: parameters)
        let first = client.connect()
        _ = client.logIn(first)
        client.step(.timerFired(try #require(timeoutTimer(client, within: .seconds(Int64(4))))))
        let second = try reconnect(&client)
        let login = client.logIn(second)
        client.receive(Packet(cmd: .response, seq: login.seq, opcode: .login, body: .loginResponse(
            LoginResponse(profile: Profile(id: 1, name: "alice"), chats: [], contacts: [], time: 2_000))),
            on: second)
        client.step(.user(.openChat(100)))
        let page = try #require(client.sent.first { $0.opcode == .chatHistory })
        _ = page
        #expect(timeoutTimer(client, within: .seconds(Int64(4))) != nil)
    }
}

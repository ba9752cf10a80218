import SimCore
import SyncProtocol
import Testing
@testable import SyncClient

/// A request that times out on a connection silent since it was sent probes the connection with a PING when the
/// regular PINGs come too seldom to notice a dead path soon (explore seed 3300091, `--param pingInterval=600s`: a
/// half-open connection kept a send retrying for five minutes).
@Suite struct ReferenceClientSilentConnectionTests {
    private func loginAnswer(_ login: Packet) -> Packet {
        Packet(cmd: .response, seq: login.seq, opcode: .login, body: .loginResponse(
            LoginResponse(profile: Profile(id: 1, name: "alice"), chats: [], contacts: [], time: 1_000)))
    }

    /// Logs in, sends a text, and returns the driver with the MSG_SEND's timeout timer.
    private func sendOnFreshConnection(
        _ parameters: ClientParameters
    ) throws -> (driver: EngineDriver, connection: ClientConnectionID, timeout: ClientTimerID) {
        var driver = try EngineDriver(parameters: parameters)
        let connection = driver.connect()
        driver.receive(loginAnswer(driver.logIn(connection)), on: connection)
        driver.step(.user(.sendText(chatId: 100, text: "hello")))
        #expect(driver.sent.contains { $0.opcode == .msgSend })
        let timeout = try #require(driver.timersStarted.first { $0.at == driver.now + parameters.requestTimeout })
        return (driver, connection, timeout.timer)
    }

    private func longPings() -> ClientParameters {
        var parameters = ClientParameters(token: "t")
        parameters.pingInterval = .seconds(Int64(600))
        return parameters
    }

    @Test("with pingInterval 600 s, a send timed out on a silent connection sends a PING, and its pong timeout drops the connection")
    func probeAfterSilentTimeout() throws {
        var (driver, connection, timeout) = try sendOnFreshConnection(longPings())
        driver.step(.timerFired(timeout))
        let probe = try #require(driver.sent.first { $0.opcode == .ping })
        #expect(driver.engine.view.isOnline)
        let pongTimeout = try #require(driver.timersStarted.first { $0.at == driver.now + .seconds(Int64(20)) })
        driver.step(.timerFired(pongTimeout.timer))
        // No pong: the connection is given up (before the fix the engine stayed on it until the PING due at 600 s).
        #expect(!driver.engine.view.isOnline)
        #expect(driver.engine.view.inFlightRequests.allSatisfy { $0.seq != probe.seq })
        _ = connection
    }

    @Test("a connection that delivered a packet after the request left is not probed")
    func noProbeAfterTraffic() throws {
        var (driver, connection, timeout) = try sendOnFreshConnection(longPings())
        let pushed = ChatMessage(id: 7, time: 2_000, sender: 2, text: "from bob")
        driver.receive(Packet(cmd: .request, seq: 0, opcode: .notifMessage,
                              body: .notifMessage(NotifMessage(chatId: 100, message: pushed))), on: connection)
        driver.step(.timerFired(timeout))
        #expect(!driver.sent.contains { $0.opcode == .ping })
        #expect(driver.engine.view.isOnline)
    }

    @Test("with the default pingInterval (30 s, under requestTimeout + pongTimeout) a timeout sends no extra PING")
    func noProbeWithDefaultPings() throws {
        var (driver, _, timeout) = try sendOnFreshConnection(ClientParameters(token: "t"))
        driver.step(.timerFired(timeout))
        #expect(!driver.sent.contains { $0.opcode == .ping })
    }
}

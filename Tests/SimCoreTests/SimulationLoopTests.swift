import Testing
@testable import SimCore

@Suite struct SimulationLoopTests {
    enum Event: Equatable { case ping(Int), stop }

    @Test("time moves only when the loop takes the next event")
    func time() {
        let loop = SimulationLoop<Event>()
        loop.schedule(.ping(1), after: .milliseconds(5))
        #expect(loop.now == .start)
        var seen: [(SimInstant, Event)] = []
        loop.step { seen.append((loop.now, $0)) }
        #expect(seen.map(\.0) == [.start + .milliseconds(5)])
        #expect(loop.now == .start + .milliseconds(5))
        loop.run(until: .start + .milliseconds(100)) { _ in }
        #expect(loop.now == .start + .milliseconds(100))
    }

    @Test("same-time events run in scheduling order, also those scheduled while running")
    func sameTime() {
        let loop = SimulationLoop<Event>(checksInvariantsAfterEveryStep: true)
        var order: [Int] = []
        loop.schedule(.ping(1), after: .zero)
        loop.schedule(.ping(2), after: .zero)
        loop.runUntilIdle { event in
            guard case .ping(let number) = event else { return }
            order.append(number)
            if number == 1 { loop.schedule(.ping(3), after: .zero) }
        }
        #expect(order == [1, 2, 3])
    }

    @Test("closures can be scheduled and cancelled")
    func closures() {
        let loop = SimulationLoop<() -> Void>()
        var log: [String] = []
        loop.schedule({ log.append("a") }, after: .milliseconds(1_000))
        let handle = loop.schedule({ log.append("b") }, after: .milliseconds(2_000))
        loop.schedule({ log.append("c") }, after: .milliseconds(3_000))
        #expect(loop.cancel(handle))
        loop.run(until: .start + .milliseconds(10_000))
        #expect(log == ["a", "c"])
        #expect(loop.eventsRun == 2)
        #expect(loop.pendingCount == 0)
    }
}

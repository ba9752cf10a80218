import SimCore
import Testing
@testable import SimNet

@Suite struct CubicWindowTests {
    @Test("cube root", arguments: [0.0, 1, 8, 27, 1_000, 0.125, 12_345.678])
    func cubeRoot(value: Double) {
        let root = CubicWindow.cubeRoot(value)
        #expect(abs(root * root * root - value) <= 1e-9 * max(value, 1))
    }

    @Test("a loss sets ssthresh to β × cwnd and fast convergence lowers Wmax on a second, smaller loss")
    func lossWindow() {
        var cubic = CubicWindow()
        #expect(cubic.lossWindow(windowSegments: 100) == 70)
        #expect(cubic.lossWindow(windowSegments: 2) == 2)
    }

    @Test("after a loss the window regrows to Wmax within about K seconds, then probes beyond")
    func regrowth() {
        var cubic = CubicWindow()
        _ = cubic.lossWindow(windowSegments: 100)
        var window = 70
        var now = SimInstant.start
        // One ACK per 2 segments every 100 ms: K = cbrt(30 / 0.4) ≈ 4.2 s.
        for _ in 0..<60 {
            now += .milliseconds(100)
            if cubic.acknowledge(segmentsAcked: 2, windowSegments: window, now: now, minimumRTT: .milliseconds(100)) {
                window += 1
            }
        }
        #expect(window > 85 && window <= 100)
    }
}

import SimCore

/// CUBIC's per-connection state (RFC 9438 §4), in segments, as ns-3 3.37's `TcpCubic` keeps it.
///
/// `acknowledgmentsPerIncrease` says after how many ACKed segments the window grows by one segment; `lossWindow`
/// gives ssthresh on a loss and remembers Wmax (with fast convergence, RFC 9438 §4.7).
struct CubicWindow {
    /// C, in segments per second cubed (RFC 9438 §5.1).
    static let scalingConstant = 0.4
    /// β_cubic, the multiplicative decrease factor (RFC 9438 §4.6).
    static let beta = 0.7
    /// ns-3's `CntClamp`: before the first loss the window grows by at least one segment per 20 ACKed.
    static let countClamp = 20

    private var epochStart: SimInstant?
    private var lastMaximumSegments = 0
    private var k = 0.0
    private var originPointSegments = 0
    /// Segments ACKed since the last one-segment increase.
    private var acknowledgedSinceIncrease = 0

    /// Takes `segmentsAcked` ACKed segments in congestion avoidance. - Returns: whether cwnd grows by one segment.
    mutating func acknowledge(segmentsAcked: Int, windowSegments: Int, now: SimInstant,
                              minimumRTT: SimDuration) -> Bool {
        acknowledgedSinceIncrease += segmentsAcked
        let count = acknowledgmentsPerIncrease(windowSegments: windowSegments, now: now, minimumRTT: minimumRTT)
        guard acknowledgedSinceIncrease >= count else { return false }
        acknowledgedSinceIncrease -= count
        return true
    }

    private mutating func acknowledgmentsPerIncrease(windowSegments: Int, now: SimInstant,
                                                     minimumRTT: SimDuration) -> Int {
        let window = max(windowSegments, 1)
        if epochStart == nil {
            epochStart = now
            if lastMaximumSegments <= window {
                k = 0
                originPointSegments = window
            } else {
                k = Self.cubeRoot(Double(lastMaximumSegments - window) / Self.scalingConstant)
                originPointSegments = lastMaximumSegments
            }
        }
        let t = (now - epochStart!).seconds + minimumRTT.seconds
        let offset = abs(t - k)
        // W_cubic(t) in whole segments: the distance from the origin point is truncated to an integer, as Linux
        // (`bictcp_update`) and ns-3 3.37 (`TcpCubic::Update`) compute it, so below Wmax the target is the origin
        // minus whole segments (the window grows faster than an exact cubic there) and above it plus whole segments.
        let delta = Int(min(Self.scalingConstant * offset * offset * offset, 1e12))
        let target = t < k ? originPointSegments - delta : originPointSegments + delta
        var count: Int
        if target > window {
            count = window / (target - window)
        } else {
            count = 100 * window
        }
        if lastMaximumSegments == 0 && count > Self.countClamp { count = Self.countClamp }
        return max(count, 2)
    }

    /// A loss at a window of `windowSegments`: ends the epoch, remembers Wmax. - Returns: ssthresh in segments.
    mutating func lossWindow(windowSegments: Int) -> Int {
        epochStart = nil
        if windowSegments < lastMaximumSegments {
            lastMaximumSegments = Int(Double(windowSegments) * (1 + Self.beta) / 2)
        } else {
            lastMaximumSegments = windowSegments
        }
        return max(Int(Double(windowSegments) * Self.beta), 2)
    }

    /// The real cube root of a non-negative number by Newton's method (no libm, so the same on every platform).
    static func cubeRoot(_ value: Double) -> Double {
        guard value > 0 else { return 0 }
        var root = max(value / 3, 1)
        for _ in 0..<100 {
            let next = root - (root * root * root - value) / (3 * root * root)
            if abs(next - root) <= 1e-12 * root { return next }
            root = next
        }
        return root
    }

    /// After a retransmission timeout: forget Wmax and the epoch (ns-3 `CubicReset` on entering CA_LOSS), and the
    /// segments ACKed since the last increase unless `keepingAcknowledgedCount` (ns-3 3.37 keeps `m_cWndCnt`).
    mutating func reset(keepingAcknowledgedCount: Bool = false) {
        epochStart = nil
        lastMaximumSegments = 0
        k = 0
        originPointSegments = 0
        if !keepingAcknowledgedCount { acknowledgedSinceIncrease = 0 }
    }
}

/// How a connection grows its congestion window outside loss recovery and how far it cuts it on a loss.
public enum CongestionControl: Hashable, Sendable {
    /// Reno/NewReno AIMD (RFC 5681 §3.1): one MSS per window in congestion avoidance, ssthresh = flight / 2.
    case reno
    /// CUBIC (RFC 9438): window W(t) = C (t - K)³ + Wmax with C = 0.4 and β = 0.7, fast convergence on; the default
    /// of Linux and of ns-3 3.37 (`TcpCubic`), without the Reno-friendly region (ns-3 3.37 has none).
    case cubic
}

/// The two-sample Kolmogorov–Smirnov test: do two samples come from the same distribution?
///
/// The statistic D is the largest distance between the two empirical distribution functions; the samples agree at
/// level α = 5% when D is at most the critical value c(α) · √((n + m) / (n · m)) with c(0.05) = 1.358, the
/// large-sample approximation (Smirnov 1948; e.g. NIST/SEMATECH e-Handbook of Statistical Methods §1.3.5.16).
/// The fidelity grid uses it where a lossy cell's median is off by more than the tolerance: if the whole
/// distributions still agree, the median moved within what the seeds allow.
public struct KolmogorovSmirnovTest: Hashable, Sendable {
    /// c(α) for α = 0.05 in the critical value c(α) · √((n + m) / (n · m)).
    public static let coefficientAtFivePercent = 1.358

    /// D = sup |F₁(x) − F₂(x)|, in [0, 1].
    public let statistic: Double
    /// The largest D at which the samples agree at 5%.
    public let criticalValue: Double

    /// Whether the two samples agree at 5% (D ≤ critical value).
    public var agrees: Bool { statistic <= criticalValue }

    /// Tests two samples. - Precondition: neither is empty.
    public init(_ first: [Double], _ second: [Double]) {
        precondition(!first.isEmpty && !second.isEmpty)
        let a = first.sorted()
        let b = second.sorted()
        let n = Double(a.count)
        let m = Double(b.count)
        var i = 0
        var j = 0
        var largest = 0.0
        // Step through the distinct values in order; ties in either sample move both functions at once.
        while i < a.count || j < b.count {
            let x = j == b.count || (i < a.count && a[i] <= b[j]) ? a[i] : b[j]
            while i < a.count && a[i] <= x { i += 1 }
            while j < b.count && b[j] <= x { j += 1 }
            largest = max(largest, abs(Double(i) / n - Double(j) / m))
        }
        statistic = largest
        criticalValue = Self.coefficientAtFivePercent * ((n + m) / (n * m)).squareRoot()
    }
}

/// The SVG chart of a sweep: one panel per profile, the first parameter on the x axis, one metric on the y axis
/// (a shared scale), the p10–p90 band, the median (p50) and the p99 per point, and a legend.
///
/// Further parameters become separate series (one colour each). Self-contained SVG 1.1, no scripts or fonts
/// beyond `sans-serif`, deterministic bytes.
public enum SweepChart {
    private static let panelWidth = 400.0
    private static let panelHeight = 300.0
    private static let plotLeft = 72.0
    private static let plotRight = 20.0
    private static let plotTop = 34.0
    private static let plotBottom = 58.0
    private static let titleHeight = 72.0
    private static let palette = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#17becf"]

    /// The metric the chart shows: `requested` when given, else the objective when reported, else the first
    /// reported metric; nil when nothing was reported.
    /// - Throws: `SweepError` when `requested` names a metric no run reported, listing those that were.
    public static func metric(for report: SweepReport, requested: String? = nil) throws -> SweepMetric? {
        if let requested {
            guard let found = report.metrics.first(where: { $0.name == requested }) else {
                throw SweepError.invalid(
                    "--svg-metric '\(requested)': no run reported it; reported: "
                        + (report.metrics.isEmpty ? "none" : report.metrics.map(\.name).joined(separator: ", "))
                )
            }
            return found
        }
        return report.metrics.first { $0.name == report.spec.objective } ?? report.metrics.first
    }

    /// The chart as an SVG document.
    /// - Parameter metric: the metric to plot (see `metric(for:requested:)`); nil draws panels saying so.
    public static func svg(_ report: SweepReport, metric: SweepMetric?) -> String {
        let spec = report.spec
        let columns = min(spec.profiles.count, 3)
        let rows = (spec.profiles.count + columns - 1) / columns
        let series = seriesLabels(spec)
        let legendHeight = 40.0 + 20.0 * Double((series.count > 1 ? series.count : 0) + 1) / 2
        let width = max(Double(columns) * panelWidth + 20, 820)
        let height = titleHeight + Double(rows) * panelHeight + legendHeight
        var out: [String] = [
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
            "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"\(n(width))\" height=\"\(n(height))\" "
                + "viewBox=\"0 0 \(n(width)) \(n(height))\" font-family=\"sans-serif\" font-size=\"12\">",
            "<rect x=\"0\" y=\"0\" width=\"\(n(width))\" height=\"\(n(height))\" fill=\"#ffffff\"/>",
        ]
        let metricIndex = metric.flatMap { chosen in report.metrics.firstIndex { $0.name == chosen.name } }
        let xName = spec.axes.first.map { axis in
            axis.parameter.name + (axis.parameter.unit.isEmpty ? "" : " (\(axis.parameter.unit))")
        } ?? "parameters"
        let yName = metric.map { $0.name + ($0.unit.isEmpty ? "" : " (\($0.unit))") } ?? "no metric"
        out.append(
            text(10, 22, "\(spec.scenario): \(yName) by \(xName)", size: 16, weight: "bold")
        )
        out.append(
            text(
                10, 42,
                "\(spec.seedCount) seeds per point (the same seeds at every point); band p10–p90, line p50 (median), "
                    + "dashed p99",
                size: 12, fill: "#444444"
            )
        )
        out.append(
            text(
                10, 58, "ring = best of its profile by p50 of \(spec.objective); each panel has its own y scale",
                size: 12, fill: "#444444"
            )
        )
        for (panel, profile) in spec.profiles.enumerated() {
            let scale = axisScale(maximum(report, metricIndex, profile: profile))
            let originX = 10 + Double(panel % columns) * panelWidth
            let originY = titleHeight + Double(panel / columns) * panelHeight
            out += panelSVG(
                report, profile: profile, metricIndex: metricIndex, series: series, scale: scale,
                origin: (originX, originY), xName: xName, yName: yName
            )
        }
        out += legend(series: series, top: titleHeight + Double(rows) * panelHeight + 8)
        out.append("</svg>")
        return out.joined(separator: "\n") + "\n"
    }

    // MARK: Panels

    private static func panelSVG(
        _ report: SweepReport,
        profile: ProfileName,
        metricIndex: Int?,
        series: [String],
        scale: (step: Double, ticks: Int),
        origin: (x: Double, y: Double),
        xName: String,
        yName: String
    ) -> [String] {
        let spec = report.spec
        let left = origin.x + plotLeft
        let right = origin.x + panelWidth - plotRight
        let top = origin.y + plotTop
        let bottom = origin.y + panelHeight - plotBottom
        let categories = spec.axes.first.map { $0.values.map(\.description) } ?? ["defaults"]
        func x(_ category: Int) -> Double {
            left + (Double(category) + 0.5) * (right - left) / Double(categories.count)
        }
        let yMax = scale.step * Double(scale.ticks)
        func y(_ value: Double) -> Double { bottom - value / yMax * (bottom - top) }
        var out = [text(origin.x + panelWidth / 2, origin.y + 20, profile.rawValue, size: 14, weight: "bold",
                        anchor: "middle")]
        var decimals = 0
        var unit = 1.0
        while unit > scale.step * 1.0001 && decimals < 6 {
            decimals += 1
            unit /= 10
        }
        for tick in 0...scale.ticks {
            let value = scale.step * Double(tick)
            out.append(line(left, y(value), right, y(value), stroke: tick == 0 ? "#333333" : "#e0e0e0"))
            out.append(text(left - 6, y(value) + 4, SweepTable.fixed(value, decimals: decimals), anchor: "end"))
        }
        out.append(line(left, top, left, bottom, stroke: "#333333"))
        for (index, category) in categories.enumerated() {
            out.append(line(x(index), bottom, x(index), bottom + 5, stroke: "#333333"))
            out.append(text(x(index), bottom + 18, category, anchor: "middle"))
        }
        out.append(text((left + right) / 2, bottom + 40, xName, anchor: "middle"))
        let yLabelX = origin.x + 16
        let yLabelY = (top + bottom) / 2
        out.append(
            "<text x=\"\(n(yLabelX))\" y=\"\(n(yLabelY))\" text-anchor=\"middle\" "
                + "transform=\"rotate(-90 \(n(yLabelX)) \(n(yLabelY)))\">\(XMLText.characterData(yName))</text>"
        )
        guard let metricIndex else {
            out.append(text((left + right) / 2, (top + bottom) / 2, "no data", anchor: "middle", fill: "#888888"))
            return out
        }
        let combinations = spec.combinations.filter { $0.profile == profile }
        for (seriesIndex, label) in series.enumerated() {
            let color = palette[seriesIndex % palette.count]
            let points: [(x: Double, summary: MetricSummary, best: Bool)] = combinations.compactMap { combination in
                guard seriesLabel(spec, combination) == label else { return nil }
                let summary = report.summaries[combination.index][metricIndex]
                guard summary.p50 != nil else { return nil }
                let category = spec.axes.isEmpty ? 0 : spec.axes[0].values.firstIndex(of: combination.values[0])!
                return (x(category), summary, report.isBest(combination.index))
            }
            guard !points.isEmpty else { continue }
            if points.count > 1 {
                let upper = points.map { "\(n($0.x)),\(n(y($0.summary.p90!)))" }
                let lower = points.reversed().map { "\(n($0.x)),\(n(y($0.summary.p10!)))" }
                out.append(
                    "<polygon points=\"\((upper + lower).joined(separator: " "))\" fill=\"\(color)\" "
                        + "fill-opacity=\"0.18\" stroke=\"none\"/>"
                )
            }
            for point in points {
                out.append(
                    "<rect x=\"\(n(point.x - 5))\" y=\"\(n(y(point.summary.p90!)))\" width=\"10\" "
                        + "height=\"\(n(max(0.5, y(point.summary.p10!) - y(point.summary.p90!))))\" fill=\"\(color)\" "
                        + "fill-opacity=\"0.30\"/>"
                )
            }
            out.append(polyline(points.map { ($0.x, y($0.summary.p99!)) }, color: color, width: 1.5, dashed: true))
            out.append(polyline(points.map { ($0.x, y($0.summary.p50!)) }, color: color, width: 2.5, dashed: false))
            for point in points {
                out.append(
                    "<circle cx=\"\(n(point.x))\" cy=\"\(n(y(point.summary.p99!)))\" r=\"2.5\" fill=\"#ffffff\" "
                        + "stroke=\"\(color)\"/>"
                )
                out.append(
                    "<circle cx=\"\(n(point.x))\" cy=\"\(n(y(point.summary.p50!)))\" r=\"4\" fill=\"\(color)\"/>"
                )
                if point.best {
                    out.append(
                        "<circle cx=\"\(n(point.x))\" cy=\"\(n(y(point.summary.p50!)))\" r=\"9\" fill=\"none\" "
                            + "stroke=\"#000000\" stroke-width=\"2\"/>"
                    )
                }
            }
        }
        return out
    }

    private static func legend(series: [String], top: Double) -> [String] {
        var out: [String] = []
        var x = 20.0
        let y = top + 14
        out.append(
            "<rect x=\"\(n(x))\" y=\"\(n(y - 9))\" width=\"22\" height=\"12\" fill=\"#555555\" "
                + "fill-opacity=\"0.25\"/>"
        )
        out.append(text(x + 28, y + 2, "p10–p90 (80% of seeds)"))
        x += 190
        out.append(line(x, y - 3, x + 24, y - 3, stroke: "#555555", width: 2.5))
        out.append(text(x + 30, y + 2, "p50 (median)"))
        x += 130
        out.append(
            "<line x1=\"\(n(x))\" y1=\"\(n(y - 3))\" x2=\"\(n(x + 24))\" y2=\"\(n(y - 3))\" stroke=\"#555555\" "
                + "stroke-width=\"1.5\" stroke-dasharray=\"5 3\"/>"
        )
        out.append(text(x + 30, y + 2, "p99"))
        x += 80
        out.append(
            "<circle cx=\"\(n(x + 9))\" cy=\"\(n(y - 3))\" r=\"8\" fill=\"none\" stroke=\"#000000\" "
                + "stroke-width=\"2\"/>"
        )
        out.append(text(x + 24, y + 2, "best of its profile"))
        guard series.count > 1 else { return out }
        for (index, label) in series.enumerated() {
            let column = Double(index % 2)
            let rowY = y + 22 + 20 * Double(index / 2)
            let left = 20 + column * 400
            out.append(line(left, rowY - 3, left + 24, rowY - 3, stroke: palette[index % palette.count], width: 3))
            out.append(text(left + 30, rowY + 2, label))
        }
        return out
    }

    // MARK: Data

    /// One label per series: the values of every axis after the first, or one empty label.
    private static func seriesLabels(_ spec: SweepSpec) -> [String] {
        var labels: [String] = []
        for combination in spec.combinations {
            let label = seriesLabel(spec, combination)
            if !labels.contains(label) { labels.append(label) }
        }
        return labels
    }

    private static func seriesLabel(_ spec: SweepSpec, _ combination: SweepCombination) -> String {
        zip(spec.axes.dropFirst(), combination.values.dropFirst())
            .map { "\($0.parameter.name)=\($1)" }.joined(separator: " ")
    }

    /// The largest p99 of the metric among the profile's combinations (each panel has its own y scale, so a fast
    /// profile stays readable next to a slow one; the tick labels say the scale).
    private static func maximum(_ report: SweepReport, _ metricIndex: Int?, profile: ProfileName) -> Double {
        guard let metricIndex else { return 0 }
        return report.spec.combinations.filter { $0.profile == profile }
            .compactMap { report.summaries[$0.index][metricIndex].p99 }.max() ?? 0
    }

    /// A y axis from 0 covering `maximum`: the smallest tick step of 1, 2 or 5 × 10^k that needs at most 5 steps,
    /// and the number of steps (at least 1). A maximum of 0 or less gives step 1, 1 tick.
    static func axisScale(_ maximum: Double) -> (step: Double, ticks: Int) {
        guard maximum > 0, maximum.isFinite else { return (1, 1) }
        var magnitude = 1.0
        while magnitude * 10 <= maximum / 5 { magnitude *= 10 }
        while magnitude > maximum / 5 { magnitude /= 10 }
        for factor in [1.0, 2.0, 5.0, 10.0, 20.0] {
            let step = factor * magnitude
            let ticks = Int((maximum / step).rounded(.up))
            if ticks <= 5 { return (step, max(1, ticks)) }
        }
        return (20 * magnitude, max(1, Int((maximum / (20 * magnitude)).rounded(.up))))
    }

    // MARK: SVG pieces

    private static func n(_ value: Double) -> String { SweepTable.fixed(value, decimals: 1) }

    private static func line(
        _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, stroke: String, width: Double = 1
    ) -> String {
        "<line x1=\"\(n(x1))\" y1=\"\(n(y1))\" x2=\"\(n(x2))\" y2=\"\(n(y2))\" stroke=\"\(stroke)\" "
            + "stroke-width=\"\(n(width))\"/>"
    }

    private static func polyline(_ points: [(Double, Double)], color: String, width: Double, dashed: Bool) -> String {
        "<polyline points=\"\(points.map { "\(n($0.0)),\(n($0.1))" }.joined(separator: " "))\" fill=\"none\" "
            + "stroke=\"\(color)\" stroke-width=\"\(n(width))\"" + (dashed ? " stroke-dasharray=\"5 3\"" : "") + "/>"
    }

    private static func text(
        _ x: Double, _ y: Double, _ content: String, size: Int = 12, weight: String? = nil,
        anchor: String = "start", fill: String = "#222222"
    ) -> String {
        "<text x=\"\(n(x))\" y=\"\(n(y))\" font-size=\"\(size)\"" + (weight.map { " font-weight=\"\($0)\"" } ?? "")
            + " text-anchor=\"\(anchor)\" fill=\"\(fill)\">\(XMLText.characterData(content))</text>"
    }
}

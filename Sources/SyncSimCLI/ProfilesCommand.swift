import SyncSim

/// `syncsim profiles`: prints the standard link profiles as a table, each with the source of its figures.
enum ProfilesCommand {
    static let spec = CommandSpec(
        name: "profiles",
        summary: "list the link profiles (rate, one-way delay, loss, queue) with their sources",
        help: """
            usage: syncsim profiles

            Prints the standard access link profiles as a table: downlink/uplink rate in kbit/s, one-way delay
            per direction, random loss, drop-tail queue capacity and the source of the figures. A scenario names
            a profile (case-insensitive) or builds a custom one.

            example: syncsim profiles
            """,
        run: { arguments, console in
            try arguments.finish()
            for line in table(LinkProfile.catalog) { console.out(line) }
            return ExitCode.success
        }
    )

    /// The table's lines: a header, a rule, one row per profile.
    static func table(_ profiles: [LinkProfile]) -> [String] {
        let header = ["profile", "down kbit/s", "up kbit/s", "delay down", "delay up", "loss", "queue B", "source"]
        let rows = profiles.map { profile in
            [
                profile.name,
                kilobits(profile.downlink.rateBitsPerSecond),
                kilobits(profile.uplink.rateBitsPerSecond),
                "\(profile.downlink.oneWayDelay)",
                "\(profile.uplink.oneWayDelay)",
                profile.downlink.loss == profile.uplink.loss
                    ? "\(profile.downlink.loss)" : "\(profile.downlink.loss)/\(profile.uplink.loss)",
                "\(profile.downlink.queueCapacityBytes)",
                profile.source,
            ]
        }
        let widths = header.indices.map { column in
            ([header] + rows).map { $0[column].count }.max() ?? 0
        }
        func render(_ cells: [String]) -> String {
            cells.enumerated().map { column, cell in
                column == cells.count - 1 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }
        return [render(header), render(widths.map { String(repeating: "-", count: $0) })] + rows.map(render)
    }

    /// 240000 -> `240`, 1638400 -> `1638.4`.
    private static func kilobits(_ bitsPerSecond: Int) -> String {
        let whole = bitsPerSecond / 1_000
        let tenths = (bitsPerSecond % 1_000) / 100
        return tenths == 0 ? "\(whole)" : "\(whole).\(tenths)"
    }
}

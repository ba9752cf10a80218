import SyncSim
import SyncTrace

/// `syncsim profiles`: prints the standard link profiles as a table, each with the source of its figures.
enum ProfilesCommand {
    static let spec = CommandSpec(
        name: "profiles",
        summary: "list the link profiles (rate, one-way delay, loss, queue) with their sources",
        help: """
            usage: syncsim profiles [--link-profiles FILE]

            Prints the standard access link profiles as a table: downlink/uplink rate in kbit/s, one-way delay
            per direction, random loss and drop-tail queue capacity (down/up when the directions differ) and the
            source of the figures. A scenario names a profile (case-insensitive) or declares one of its own
            (`LinkProfile(...)` in its body).

            options:
              --link-profiles FILE also read the link profiles (network cells) of a JSON file (repeatable), check them and
                                   list them after the catalog's, with a column for jitter, reordering, CoDel,
                                   outages and delay spikes (docs/models.md, "Link profiles of your own")

            examples: syncsim profiles
                      syncsim profiles --link-profiles Examples/link-profiles.json
            """,
        run: { arguments, console in
            let own = try LinkProfileOption.parse(&arguments)
            try arguments.finish()
            for line in table(LinkProfile.catalog + (own?.profiles ?? [])) { console.out(line) }
            return ExitCode.success
        }
    )

    /// What a direction has beyond rate, delay, loss and queue bytes (`jitter uniform(0..50ms), codel`), or "".
    static func extras(_ direction: LinkDirectionProfile) -> String {
        var parts: [String] = []
        if direction.jitter != .none { parts.append("jitter \(direction.jitter)") }
        if direction.reordersPackets { parts.append("reorders") }
        if let packets = direction.queueCapacityPackets { parts.append("queue " + counted(packets, "packet")) }
        if case .codel(let target, let interval) = direction.activeQueue {
            parts.append("codel(target \(target), interval \(interval))")
        }
        if direction.outages != .none { parts.append("outages \(direction.outages)") }
        if let spikes = direction.delaySpikes { parts.append("spikes \(spikes)") }
        if direction.perPacketOverheadBytes != 0 { parts.append("overhead \(direction.perPacketOverheadBytes) B") }
        return parts.joined(separator: ", ")
    }

    /// The table's lines: a header, a rule, one row per profile.
    static func table(_ profiles: [LinkProfile]) -> [String] {
        let showsExtras = profiles.contains { !extras($0.downlink).isEmpty || !extras($0.uplink).isEmpty }
        var header = ["profile", "down kbit/s", "up kbit/s", "delay down", "delay up", "loss", "queue B", "source"]
        if showsExtras { header.insert("more (down / up)", at: 7) }
        let rows = profiles.map { profile in
            let more = extras(profile.downlink) == extras(profile.uplink)
                ? extras(profile.downlink)
                : [profile.downlink, profile.uplink].map { extras($0).isEmpty ? "-" : extras($0) }
                    .joined(separator: " / ")
            return [
                profile.name,
                kilobits(profile.downlink.rateBitsPerSecond),
                kilobits(profile.uplink.rateBitsPerSecond),
                "\(profile.downlink.oneWayDelay)",
                "\(profile.uplink.oneWayDelay)",
                profile.downlink.loss == profile.uplink.loss
                    ? "\(profile.downlink.loss)" : "\(profile.downlink.loss)/\(profile.uplink.loss)",
                profile.downlink.queueCapacityBytes == profile.uplink.queueCapacityBytes
                    ? "\(profile.downlink.queueCapacityBytes)"
                    : "\(profile.downlink.queueCapacityBytes)/\(profile.uplink.queueCapacityBytes)",
            ] + (showsExtras ? [more] : []) + [profile.source]
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

    /// 240000 -> `240`, 1638400 -> `1638.4`; below 1 kbit/s to the bit (1 -> `0.001`), so a slow link never reads
    /// as offline's 0.
    private static func kilobits(_ bitsPerSecond: Int) -> String {
        let whole = bitsPerSecond / 1_000
        if bitsPerSecond > 0 && bitsPerSecond < 1_000 {
            let bits = String(bitsPerSecond)
            return "0." + String(repeating: "0", count: 3 - bits.count) + bits
        }
        let tenths = (bitsPerSecond % 1_000) / 100
        return tenths == 0 ? "\(whole)" : "\(whole).\(tenths)"
    }
}

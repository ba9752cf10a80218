import SimCore

extension LinkProfile {
    /// 2G in a developing rural area: 20 kbit/s down, 18 kbit/s up, 650 ms each way, 2% loss each way.
    /// Source: ATC (facebook/augmented-traffic-control) profile 2G-DevelopingRural.
    public static let twoGRural = LinkProfile(
        name: "2G-rural", source: "ATC profile 2G-DevelopingRural",
        uplink: .init(rateBitsPerSecond: 18_000, oneWayDelay: .milliseconds(650), loss: .bernoulli(probability: 0.02)),
        downlink: .init(rateBitsPerSecond: 20_000, oneWayDelay: .milliseconds(650), loss: .bernoulli(probability: 0.02))
    )

    /// GPRS: 50 kbit/s down, 20 kbit/s up, 500 ms round trip (DevTools' latency is per request, so 250 ms each way).
    /// Source: Chrome DevTools' former GPRS throttling preset.
    public static let gprs = LinkProfile(
        name: "GPRS", source: "Chrome DevTools preset GPRS (former)",
        uplink: .init(rateBitsPerSecond: 20_000, oneWayDelay: .milliseconds(250)),
        downlink: .init(rateBitsPerSecond: 50_000, oneWayDelay: .milliseconds(250))
    )

    /// EDGE: 240 kbit/s down with 400 ms, 200 kbit/s up with 440 ms one-way delay.
    /// Source: ATC profile Edge-Average.
    public static let edge = LinkProfile(
        name: "EDGE", source: "ATC profile Edge-Average",
        uplink: .init(rateBitsPerSecond: 200_000, oneWayDelay: .milliseconds(440)),
        downlink: .init(rateBitsPerSecond: 240_000, oneWayDelay: .milliseconds(400))
    )

    /// EDGE with 1% loss each way. Source: ATC profile Edge-Lossy.
    public static let edgeLossy = LinkProfile(
        name: "EDGE-lossy", source: "ATC profile Edge-Lossy",
        uplink: .init(rateBitsPerSecond: 200_000, oneWayDelay: .milliseconds(440), loss: .bernoulli(probability: 0.01)),
        downlink: .init(rateBitsPerSecond: 240_000, oneWayDelay: .milliseconds(400),
                        loss: .bernoulli(probability: 0.01))
    )

    /// 3G: 780 kbit/s down, 330 kbit/s up, 100 ms each way. Source: ATC profile 3G-Average.
    public static let threeG = LinkProfile(
        name: "3G", source: "ATC profile 3G-Average",
        uplink: .init(rateBitsPerSecond: 330_000, oneWayDelay: .milliseconds(100)),
        downlink: .init(rateBitsPerSecond: 780_000, oneWayDelay: .milliseconds(100))
    )

    /// 4G (slow): 1,638.4 kbit/s down, 750 kbit/s up, 150 ms RTT (75 ms each way).
    /// Source: Lighthouse throttling preset mobileSlow4G.
    public static let fourG = LinkProfile(
        name: "4G", source: "Lighthouse preset mobileSlow4G",
        uplink: .init(rateBitsPerSecond: 750_000, oneWayDelay: .milliseconds(75)),
        downlink: .init(rateBitsPerSecond: 1_638_400, oneWayDelay: .milliseconds(75))
    )

    /// Wi-Fi: 30 Mbit/s down, 15 Mbit/s up, 2 ms round trip (1 ms each way).
    /// Source: Chrome DevTools' former WiFi throttling preset.
    public static let wifi = LinkProfile(
        name: "WiFi", source: "Chrome DevTools preset WiFi (former)",
        uplink: .init(rateBitsPerSecond: 15_000_000, oneWayDelay: .milliseconds(1)),
        downlink: .init(rateBitsPerSecond: 30_000_000, oneWayDelay: .milliseconds(1))
    )

    /// No connectivity: both directions carry nothing (every packet is dropped).
    public static let offline = LinkProfile(
        name: "offline", source: "no connectivity (rate 0)",
        uplink: .init(rateBitsPerSecond: 0, oneWayDelay: .zero),
        downlink: .init(rateBitsPerSecond: 0, oneWayDelay: .zero)
    )

    /// A server's link in a data centre: 10 Gbit/s each way, no delay, a 10 MB queue. The default server side.
    public static let datacenter = LinkProfile(
        name: "datacenter", source: "assumption: a server's 10 Gbit/s port, delay folded into the access link",
        uplink: .init(rateBitsPerSecond: 10_000_000_000, oneWayDelay: .zero, queueCapacityBytes: 10_000_000),
        downlink: .init(rateBitsPerSecond: 10_000_000_000, oneWayDelay: .zero, queueCapacityBytes: 10_000_000)
    )

    /// The standard client profiles, in the order `syncsim profiles` lists them.
    public static let catalog: [LinkProfile] = [twoGRural, gprs, edge, edgeLossy, threeG, fourG, wifi, offline]

    /// The catalog profile called `name` (case-insensitive), or nil.
    public static func named(_ name: String) -> LinkProfile? {
        (catalog + [datacenter]).first { $0.name.lowercased() == name.lowercased() }
    }

    /// The profile called `name` (case-insensitive) among `extra` (a scenario's own, a `--link-profiles` file's),
    /// else in the catalog; nil when neither has it.
    public static func named(_ name: String, among extra: [LinkProfile]) -> LinkProfile? {
        let lowered = name.lowercased()
        return extra.first { $0.name.lowercased() == lowered } ?? named(name)
    }
}

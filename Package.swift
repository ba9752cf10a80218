// swift-tools-version: 6.0
// SyncSim: a deterministic network simulator and protocol test bench for a messenger's sync protocol.
// Module map and dependency directions: docs/commands.md ("Layout"). Dependencies point down this list only.
import PackageDescription

/// Settings every Swift target shares. `InternalImportsByDefault` is left off: it would force
/// `public import` on every module whose types appear in a sibling's public API, for little gain here.
///
/// `SYNCSIM_LAYOUT_EPOCH_n` is read by no code. Raise `n` with a change that alters the memory layout of a type other
/// modules hold (session 40, epoch 1: `Packet.Body` became `indirect`, a packet 16 bytes instead of about 300;
/// session 41, epoch 2: `ChunkStore` became one reference to a copy-on-write box). SwiftPM's
/// incremental build recompiles the changed module but not every file above it, and those keep the old layout: a
/// `swift test` over a `.build` from before crashed. New flags make every target compile again, once.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .define("SYNCSIM_LAYOUT_EPOCH_2"),
]

let package = Package(
    name: "SyncSim",
    products: [
        .executable(name: "syncsim", targets: ["syncsim"]),
        .executable(name: "syncsim-bench", targets: ["SyncSimBenchmarks"]),
        .library(name: "SyncSim", targets: ["SyncSim"]),
        // For a user's package: `@Test(arguments: Catalog.all.seedCases)`; re-exports SyncSim and the catalog.
        .library(name: "SyncSimTesting", targets: ["SyncSimTesting"]),
    ],
    targets: [
        // C libraries from Debian's -dev packages, each wrapped by exactly one Swift file or folder.
        .systemLibrary(name: "CLZ4", pkgConfig: "liblz4", providers: [.apt(["liblz4-dev"])]),
        .systemLibrary(name: "CMsgPack", pkgConfig: "msgpack", providers: [.apt(["libmsgpack-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CPcap", pkgConfig: "libpcap", providers: [.apt(["libpcap-dev"])]),
        .systemLibrary(name: "CZstd", pkgConfig: "libzstd", providers: [.apt(["libzstd-dev"])]),
        // OpenSSL's libcrypto, for the SHA-1 of the WebSocket handshake only (`syncsim serve`, RFC 6455 §4.2.2).
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        // zlib, to inflate WebSocket messages compressed by permessage-deflate in captures (RFC 7692).
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),

        // Not a library: the compiler's cache prefetch hint, for the event queue (`EventQueue.prefetchGrandchildren`).
        .systemLibrary(name: "CPrefetch"),

        .target(name: "SimCore", dependencies: ["CPrefetch"], swiftSettings: swiftSettings),
        .target(name: "SimNet", dependencies: ["SimCore"], swiftSettings: swiftSettings),
        .target(name: "SyncProtocol", dependencies: ["CLZ4", "CMsgPack", "CZstd"], swiftSettings: swiftSettings),
        .target(name: "SyncServer", dependencies: ["SimCore", "SyncProtocol"], swiftSettings: swiftSettings),
        .target(name: "SyncClient", dependencies: ["SimCore", "SyncProtocol", "CSQLite"], swiftSettings: swiftSettings),
        .target(name: "SyncChecks", dependencies: ["SyncServer", "SyncClient"], swiftSettings: swiftSettings),
        .target(name: "SyncTrace", dependencies: ["SyncProtocol", "CPcap", "CZlib"], swiftSettings: swiftSettings),
        .target(
            name: "SyncSim",
            dependencies: ["SimCore", "SimNet", "SyncProtocol", "SyncServer", "SyncClient", "SyncChecks", "SyncTrace"],
            swiftSettings: swiftSettings
        ),
        .target(name: "Scenarios", dependencies: ["SyncSim"], path: "Scenarios", swiftSettings: swiftSettings),
        .target(name: "SyncSimCLI", dependencies: ["SyncSim", "Scenarios", "CCrypto"], swiftSettings: swiftSettings),
        .target(name: "SyncSimTesting", dependencies: ["SyncSim", "Scenarios"], swiftSettings: swiftSettings),
        .executableTarget(name: "syncsim", dependencies: ["SyncSimCLI"], swiftSettings: swiftSettings),
        .executableTarget(
            name: "SyncSimBenchmarks",
            dependencies: ["SyncSim", "Scenarios", "SyncSimCLI", "CLZ4", "CMsgPack"],
            swiftSettings: swiftSettings
        ),

        .testTarget(name: "SimCoreTests", dependencies: ["SimCore"], swiftSettings: swiftSettings),
        .testTarget(name: "SimNetTests", dependencies: ["SimNet"], swiftSettings: swiftSettings),
        .testTarget(name: "SyncProtocolTests", dependencies: ["SyncProtocol", "SimCore"], swiftSettings: swiftSettings),
        .testTarget(name: "SyncServerTests", dependencies: ["SyncServer"], swiftSettings: swiftSettings),
        .target(
            name: "SyncTestSupport",
            dependencies: ["SyncServer", "SyncClient", "SyncChecks"],
            path: "Tests/SyncTestSupport",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SyncClientTests",
            dependencies: ["SyncClient", "SyncServer", "SyncTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SyncChecksTests",
            dependencies: ["SyncChecks", "SyncClient", "SyncServer", "SyncTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "SyncTraceTests", dependencies: ["SyncTrace", "SimCore"], swiftSettings: swiftSettings),
        .testTarget(name: "SyncSimTests", dependencies: ["SyncSim", "Scenarios"], swiftSettings: swiftSettings),
        .testTarget(name: "SyncSimCLITests", dependencies: ["SyncSimCLI"], swiftSettings: swiftSettings),
        .testTarget(name: "SyncSimBenchmarksTests", dependencies: ["SyncSimBenchmarks"], swiftSettings: swiftSettings),
        .testTarget(name: "SyncSimTestingTests", dependencies: ["SyncSimTesting"], swiftSettings: swiftSettings),
    ]
)

// swift-tools-version: 6.0
// The parser test suites alone, for `make test-asan-parsers` (docs/reliability.md): the byte-reading modules
// (SyncProtocol: frames, MessagePack, LZ4, zstd; SyncTrace: pcap/pcapng, reassembly, WebSocket) and their tests, so a
// `swift test --sanitize=address` builds a few modules instead of the whole package. `Sources`, `Tests` and
// `Fixtures` are symlinks to the root package's folders (the tests find Fixtures/ from their own path); targets not
// declared here are ignored. Keep the declarations in step with the root Package.swift.
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "SyncSimParsersASan",
    targets: [
        .systemLibrary(name: "CLZ4", pkgConfig: "liblz4", providers: [.apt(["liblz4-dev"])]),
        .systemLibrary(name: "CMsgPack", pkgConfig: "msgpack", providers: [.apt(["libmsgpack-dev"])]),
        .systemLibrary(name: "CPcap", pkgConfig: "libpcap", providers: [.apt(["libpcap-dev"])]),
        .systemLibrary(name: "CZstd", pkgConfig: "libzstd", providers: [.apt(["libzstd-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CPrefetch"),
        .target(name: "SimCore", dependencies: ["CPrefetch"], swiftSettings: swiftSettings),
        .target(name: "SyncProtocol", dependencies: ["CLZ4", "CMsgPack", "CZstd"], swiftSettings: swiftSettings),
        .target(name: "SyncTrace", dependencies: ["SyncProtocol", "CPcap", "CZlib"], swiftSettings: swiftSettings),
        .testTarget(name: "SyncProtocolTests", dependencies: ["SyncProtocol", "SimCore"], swiftSettings: swiftSettings),
        .testTarget(name: "SyncTraceTests", dependencies: ["SyncTrace", "SimCore"], swiftSettings: swiftSettings),
    ]
)

// swift-tools-version: 6.0
// SyncSim fuzz targets: a separate package so that the main package's `swift build` never links them.
// Each executable target hands its test function to libFuzzer's driver (FuzzSupport.runFuzzer) and is built only
// with `-sanitize=fuzzer,address`. Build and run them with `make fuzz` / `make fuzz-smoke`; docs/reliability.md.
import PackageDescription

/// The fuzz targets: each name is an executable in `Sources/<name>/main.swift`.
let fuzzTargets = [
    "fuzz-frames",
    "fuzz-msgpack",
    "fuzz-codable",
    "fuzz-lz4",
    "fuzz-zstd",
    "fuzz-pcap",
    "fuzz-server",
    "fuzz-client",
    "fuzz-dsl",
    "fuzz-websocket",
]

let package = Package(
    name: "SyncSimFuzz",
    // `syncsim-root` is a symlink to the repository root: a path dependency takes its identity from the last path
    // component, and the checkout directory's name (e.g. `fuzz`, `main`) is not fixed.
    dependencies: [.package(path: "syncsim-root")],
    targets: [
        // The library product "SyncSim" builds every module the targets import (SyncProtocol ... SyncTrace).
        .target(name: "CFuzzerDriver"),
        .target(name: "FuzzSupport", dependencies: ["CFuzzerDriver", .product(name: "SyncSim", package: "syncsim-root")]),
    ] + fuzzTargets.map { name in
        .executableTarget(name: name, dependencies: ["FuzzSupport", .product(name: "SyncSim", package: "syncsim-root")])
    }
)

// swift-tools-version: 6.0
// A user's package that runs SyncSim catalog scenarios from `swift test` (README.md, "Scenarios in your own
// `swift test`"). It depends on this checkout by path; a real package would write
// `.package(url: "https://github.com/OWNER/SyncSim.git", branch: "main")` and `package: "SyncSim"`.
import Foundation
import PackageDescription

/// SwiftPM names a path dependency after its folder (lower-cased), whatever the clone is called.
let syncSimFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

let package = Package(
    name: "UserPackage",
    dependencies: [
        .package(path: syncSimFolder.path),
    ],
    targets: [
        .testTarget(
            name: "UserPackageTests",
            dependencies: [.product(name: "SyncSimTesting", package: syncSimFolder.lastPathComponent.lowercased())]
        ),
    ]
)

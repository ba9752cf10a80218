import Foundation
import SyncSim
import SyncSimCLI

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.isEmpty || arguments[0] == "--help" || arguments[0] == "-h" {
    print("usage: syncsim-bench NAME [ARGS...]   (run with: swift run -c release syncsim-bench NAME)")
    print("benchmarks:")
    for benchmark in benchmarks {
        print("  \(benchmark.name.padding(toLength: 12, withPad: " ", startingAt: 0))\(benchmark.summary)")
    }
    exit(arguments.isEmpty ? 2 : 0)
}
if arguments == ["--version"] {
    print("syncsim-bench \(SyncSimVersion.current)")
    exit(0)
}
guard let benchmark = benchmarks.first(where: { $0.name == arguments[0] }) else {
    let message = Suggestion.unknown("benchmark", arguments[0], among: benchmarks.map(\.name), listedAs: "benchmarks")
    FileHandle.standardError.write(Data(("syncsim-bench: " + message + "\n").utf8))
    exit(2)
}
if arguments.dropFirst().contains(where: { $0 == "--help" || $0 == "-h" }) {
    print("syncsim-bench \(benchmark.name): \(benchmark.summary)")
    exit(0)
}
do {
    try benchmark.run(Array(arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("syncsim-bench \(benchmark.name): \(error)\n".utf8))
    exit(2)
}

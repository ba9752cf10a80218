import Scenarios
import SyncSim
import Testing
@testable import SyncSimCLI

@Suite struct CatalogCheckTests {
    /// Two scenarios named "twin" on different lines, and one other.
    static let catalog = [
        Scenario("twin", summary: "first", seeds: [1]) { Client("alice", profile: .edge) },
        Scenario("other", summary: "other", seeds: [1]) { Client("alice", profile: .edge) },
        Scenario("twin", summary: "second", seeds: [2]) { Client("bob", profile: .edge) },
    ]

    static func expectNamesBothLocations(_ text: String) {
        let lines = catalog.filter { $0.name == "twin" }.map(\.location.description)
        #expect(text.contains("2 scenarios named 'twin': \(lines[0]) and \(lines[1])"), "\(text)")
        #expect(lines[0].hasPrefix("SyncSimCLITests/CatalogCheckTests.swift:"))
    }

    @Test("run rejects a catalog with a duplicate name, naming both source locations, exit 2")
    func run() {
        let output = runCommand(["twin"], catalog: Self.catalog, executor: PlaceholderExecutor())
        #expect(output.code == ExitCode.usage)
        #expect(output.out.isEmpty)
        Self.expectNamesBothLocations(output.err)
    }

    @Test("list rejects a catalog with a duplicate name")
    func list() {
        final class Lines { var out = ""; var err = "" }
        let lines = Lines()
        let console = Console(out: { lines.out += $0 }, err: { lines.err += $0 })
        var arguments = ArgumentList([])
        #expect(throws: CatalogError.self) {
            _ = try ListCommand.run(&arguments, console: console, catalog: Self.catalog)
        }
        do {
            _ = try ListCommand.run(&arguments, console: console, catalog: Self.catalog)
        } catch {
            Self.expectNamesBothLocations("\(error)")
        }
        #expect(lines.out.isEmpty)
    }

    @Test("sweep rejects a catalog with a duplicate name")
    func sweep() {
        var arguments = ArgumentList(["twin", "--profiles", "EDGE", "--seeds", "2"])
        do {
            _ = try SweepCommand(parsing: &arguments, catalog: Self.catalog)
            Issue.record("a duplicate name was accepted")
        } catch {
            #expect(error is CatalogError)
            Self.expectNamesBothLocations("\(error)")
        }
    }

    @Test("the real catalog has unique names")
    func realCatalog() throws {
        try CatalogCheck.requireUniqueNames(Scenarios.Catalog.all)
    }
}

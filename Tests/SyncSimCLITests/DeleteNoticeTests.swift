import Scenarios
import SyncSim
import Testing

/// The server parameter `deleteNotice: "removed-message"` (deletes pushed as PyMax 1.2.5 reads them: one NOTIF_MESSAGE
/// per deleted message, status REMOVED) against the catalog's scenarios about deletes: the reference engine takes that
/// shape as it takes NOTIF_MSG_DELETE, and every invariant holds.
@Suite struct DeleteNoticeTests {
    static let names = [
        "changes-before-messages-cached", "explore-changes-while-away", "delete-before-retry-duplicate",
        "edit-delete-racing-gap-page", "explore-relaunch-keeps-removal",
    ]

    @Test("delete scenarios pass with deletes pushed as removed messages", arguments: names)
    func removedMessageNotice(name: String) throws {
        let catalog = try #require(Catalog.all.first { $0.name == name })
        var scenario = catalog
        scenario.server.parameters["deleteNotice"] = "removed-message"
        var changed = 0
        for seed in scenario.seeds {
            let result = try World(scenario: scenario, seed: seed).run()
            #expect(result.violations.map(\.description) == [], "\(name) seed \(seed)")
            if try result.digest != World(scenario: catalog, seed: seed).run().digest { changed += 1 }
        }
        // The other shape went out: the run is not the catalog's (a scenario whose deletes all reach clients by LOGIN
        // rather than by push would run the same).
        #expect(changed > 0 || name == "explore-changes-while-away", "\(name): no run changed")
    }

    @Test("an unknown deleteNotice is refused, naming both shapes")
    func unknownNotice() throws {
        var scenario = try #require(Catalog.all.first { $0.name == Self.names[0] })
        scenario.server.parameters["deleteNotice"] = "both"
        #expect {
            _ = try World(scenario: scenario, seed: 1)
        } throws: { error in
            "\(error)".contains("\"notif-msg-delete\" or \"removed-message\"")
        }
    }
}

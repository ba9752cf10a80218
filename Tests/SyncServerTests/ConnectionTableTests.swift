import SimCore
import Testing
@testable import SyncServer

/// `ConnectionTable` against a plain dictionary: same values and same ascending keys for any ids, dense or not.
struct ConnectionTableTests {
    @Test func matchesADictionaryForDenseSparseAndNegativeIds() {
        var generator = SeededGenerator(seed: 7)
        var table = ConnectionTable<Int>()
        var reference: [ServerConnectionID: Int] = [:]
        // Mostly ids near the array's end, some far ahead, some negative, some reused after removal.
        for step in 0..<5_000 {
            let pick = Int(generator.next() % 10)
            let raw: Int
            switch pick {
            case 0: raw = -Int(generator.next() % 50)
            case 1: raw = 1_000 + Int(generator.next() % 5_000)
            default: raw = Int(generator.next() % 400)
            }
            let id = ServerConnectionID(rawValue: raw)
            switch generator.next() % 4 {
            case 0:
                table[id] = nil
                reference[id] = nil
            case 1:
                table[id]? += 1
                reference[id]? += 1
            default:
                table[id] = step
                reference[id] = step
            }
            #expect(table[id] == reference[id], "step \(step) id \(raw)")
            if step % 500 == 0 { table.removeAll(); reference = [:] }
        }
        #expect(table.sortedKeys == reference.keys.sorted())
        for key in reference.keys { #expect(table[key] == reference[key]) }
        for raw in -60..<7_000 where reference[ServerConnectionID(rawValue: raw)] == nil {
            #expect(table[ServerConnectionID(rawValue: raw)] == nil)
        }
    }

    @Test func anIdStoredFarAheadIsFoundOnceTheArrayReachesIt() {
        var table = ConnectionTable<String>()
        table[ServerConnectionID(rawValue: 100)] = "far"
        for raw in 0..<200 where raw != 100 { table[ServerConnectionID(rawValue: raw)] = "near \(raw)" }
        #expect(table[ServerConnectionID(rawValue: 100)] == "far")
        #expect(table.sortedKeys == (0..<200).map { ServerConnectionID(rawValue: $0) })
        table[ServerConnectionID(rawValue: 100)] = nil
        #expect(table[ServerConnectionID(rawValue: 100)] == nil)
        #expect(table.sortedKeys.count == 199)
    }

    @Test func theServerListsConnectionsWithAnyIdsAscending() {
        var server = SyncServer(generator: SeededGenerator(seed: 1))
        let raws = [1_000_000, 3, -2, 4, 70, 2]
        for raw in raws { _ = server.handle(.connectionOpened(ServerConnectionID(rawValue: raw)), now: .start) }
        _ = server.handle(.connectionClosed(ServerConnectionID(rawValue: 4)), now: .start)
        #expect(server.openConnections.map(\.connection.rawValue) == [-2, 2, 3, 70, 1_000_000])
        let actions = server.handle(.restart, now: .start)
        let closed = actions.compactMap { action -> Int? in
            if case .close(let connection) = action { return connection.rawValue } else { return nil }
        }
        #expect(closed == [-2, 2, 3, 70, 1_000_000])
        #expect(server.openConnections.isEmpty)
    }
}

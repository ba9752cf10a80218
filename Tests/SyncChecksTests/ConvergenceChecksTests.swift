import SimCore
import SyncChecks
import SyncProtocol
import SyncServer
import Testing
@testable import SyncClient

/// User 1 in chats 100 (3 messages) and 200 (empty); chat 300 belongs to others.
private func makeServer() -> SyncServer {
    var server = SyncServer(generator: RandomStreams(runSeed: 1).stream("server"))
    server.addChat(id: 100, members: [1, 2], now: .start)
    server.addChat(id: 200, members: [1, 3], now: .start)
    server.addChat(id: 300, members: [2, 3], now: .start)
    server.seedHistory(chatId: 100, sender: 2, texts: ["a", "b", "c"], now: .start)
    return server
}

private func view(chatList: [Int64: ChatSummary], stores: [Int64: ChunkStore] = [:]) -> ClientView {
    ClientView(chunkStores: stores, chatList: chatList, localEchoes: [], tasks: [], lastSyncMilliseconds: 0,
               inFlightRequests: [], isOnline: true, openChatId: nil, visibleMessageIds: [])
}

@Suite struct ConvergenceChecksTests {
    @Test("a client listing its chats with the server's last messages has converged") func converged() {
        let server = makeServer()
        var store = ChunkStore()
        store.insertPage(Array(server.messages(inChat: 100).suffix(2)), isStartOfHistory: false)
        let list: [Int64: ChatSummary] = [100: server.summary(ofChat: 100)!, 200: server.summary(ofChat: 200)!]
        #expect(ConvergenceChecks.v1Problems(userId: 1, view: view(chatList: list, stores: [100: store]),
                                             server: server) == [])
    }

    @Test("a newer cached message (an acknowledged own send) counts as the chat list's preview") func ownSend() {
        let server = makeServer()
        var stale = server.summary(ofChat: 100)!
        stale.lastMessage = server.messages(inChat: 100)[1]
        var store = ChunkStore()
        store.insertPage(server.messages(inChat: 100), isStartOfHistory: true)
        let list: [Int64: ChatSummary] = [100: stale, 200: server.summary(ofChat: 200)!]
        #expect(ConvergenceChecks.v1Problems(userId: 1, view: view(chatList: list, stores: [100: store]),
                                             server: server) == [])
        #expect(ConvergenceChecks.v1Problems(userId: 1, view: view(chatList: list), server: server).map(\.chatId)
            == [100])
    }

    @Test("a missing chat, a stale entry and a foreign chat are each one problem") func problems() {
        let server = makeServer()
        var stale = server.summary(ofChat: 100)!
        stale.lastMessage = nil
        let list: [Int64: ChatSummary] = [100: stale, 300: server.summary(ofChat: 300)!]
        let problems = ConvergenceChecks.v1Problems(userId: 1, view: view(chatList: list), server: server)
        #expect(problems.map(\.chatId) == [100, 200, 300])
        #expect(problems[1].found == "it is missing")
    }
}

/// The scenario language's reference, generated from the code: every public DSL word with its argument labels,
/// units and one example each, rendered as Markdown (`docs/dsl.md`, `syncsim dsl-reference`).
///
/// Examples of actions, conditions and expectations are printed by `Scenario.dslSource()`'s printer from sample
/// values, the same printer whose output the tests compile, so they are valid DSL code. `entry(for:)` switches over
/// every `Action` case: a new action does not compile until it is documented here.
public enum DSLReference {
    /// One documented word.
    public struct Entry: Hashable, Sendable {
        /// The word as written (`Send`).
        public var word: String
        /// Its call with argument labels and types (`Send(from: String, text: String, in: String)`).
        public var signature: String
        /// What it does, with units.
        public var about: String
        /// One example.
        public var example: String
    }

    /// The reference as Markdown.
    public static var markdown: String {
        var lines: [String] = []
        func heading(_ text: String) { lines += ["", "## " + text, ""] }
        func table(_ entries: [Entry]) {
            lines.append("| word | signature | what it does | example |")
            lines.append("|---|---|---|---|")
            for entry in entries {
                let cells = [entry.word, "`\(entry.signature)`", entry.about, "`\(entry.example)`"]
                let escaped = cells.map { $0.split(separator: "|", omittingEmptySubsequences: false)
                    .joined(separator: "\\|") }
                lines.append("| " + escaped.joined(separator: " | ") + " |")
            }
        }
        lines += [
            "# The scenario language (DSL) reference",
            "",
            "Generated from the code by `syncsim dsl-reference` (`DSLReference.markdown`); a test keeps this file",
            "equal to it. Do not edit by hand: change the code, then run",
            "`swift run syncsim dsl-reference > docs/dsl.md`.",
            "",
            "A scenario is Swift code in `Scenarios/`, written with these words after `import SyncSim`. Durations are",
            "virtual time (`SimDuration`: `.seconds(5)`, `.milliseconds(300)`, `.minutes(2)`, `.hours(1)`,",
            "`.microseconds(n)`, `.nanoseconds(n)`; `+` adds them). Names are strings: clients (`\"alice\"`), second",
            "devices (`\"alice:tablet\"`), chats (`\"alice+bob\"` names its members; others are declared with `Chat`),",
            "step labels (`.named(\"send\")`). A typo is reported before any run, with the valid names listed.",
        ]
        heading("Scenario and topology")
        table(topology)
        heading("Timeline groups and step labels")
        table(timeline)
        heading("Protocol events for `When`")
        lines += [
            "Each event fires its `When` step at its first occurrence, or its `k`th with `.nth(k)`; the step's actions",
            "run at that virtual instant, at most once. Where the event is observed decides what the actions see:",
            "",
        ]
        table(events)
        heading("Actions")
        lines += ["Actions go inside `At`, `After` and `When` groups. Faults are marked (fault).", ""]
        table(actionSamples.map(entry(for:)))
        heading("Expectations")
        lines += [
            "Inside `Expect { ... }`. With no `Invariants(...)` a scenario checks every invariant. `Always`/`Never`",
            "are checked after every world step of their window and report the instant they broke; `Eventually`",
            "reports its deadline; both attach the trace records up to that instant (`--trace-window N`, 30 by",
            "default).",
            "",
        ]
        table(expectations)
        heading("Moments and metric windows")
        table(moments)
        heading("Conditions")
        lines += ["Used by `Eventually`, `Always`, `Never` and `Check`.", ""]
        table(conditionSamples.map(entry(for:)))
        heading("The world as a probe (`WorldProbe`)")
        lines += [
            "What a custom condition's closure receives (`{ world in ... }`): read-only snapshots as value types,",
            "never the concrete world. List the clients it looks at with `clients:` so shrinking keeps them.",
            "",
            "| member | returns |",
            "|---|---|",
        ]
        lines += probe.map { "| `\($0.0)` | \($0.1) |" }
        heading("Metrics")
        lines += [
            "Run metrics for `MetricBound(\"name\", atMost:)` (whole run, every client):",
            "",
            "| metric | unit | meaning |",
            "|---|---|---|",
        ]
        lines += SweepMetric.all.map { "| `\($0.name)` | \($0.unit.isEmpty ? "count" : $0.unit) | \($0.summary) |" }
        lines += [
            "",
            "Windowed per-client counts for `MetricBound(\"name\", client:, opcode:, window:)` (`WindowMetric`):",
            "",
        ]
        lines += WindowMetric.allCases.map { "- `\($0.rawValue)`: \(windowMetricMeaning($0))" }
        heading("Values")
        lines.append("- Link profiles (`profile:`): " + ProfileName.known.map { "`.\($0.swiftName)` (\($0.profile))" }
            .joined(separator: ", ") + "; a profile of the scenario's own (`LinkProfile`) by its string.")
        lines.append("- Opcodes (`to:`, `opcode:`, `receives:`): " + DSLLiteral.opcodeNames.map { "`.\($0.1)` (\($0.0))" }
            .joined(separator: ", ") + "; others as `Opcode(rawValue: n)`.")
        lines.append("- Packet kinds (`.client(_:receives:_:)`): `.request`, `.response`, `.push`, `.error`.")
        lines.append("- Client parameters (`Client(parameters:)`): " + ClientSetup.validNames.map { "`\($0)`" }
            .joined(separator: ", ") + "; a duration no shorter than `syncsim sweep --param` takes it "
            + "(`syncsim sweep --help` lists the ranges: a `pingInterval` of at least 1 s, a `requestTimeout` of at "
            + "least 100 ms).")
        lines.append("- Server parameters (`Server(parameters:)`): " + ServerSetup.validNames.map { "`\($0)`" }
            .joined(separator: ", ") + ".")
        lines.append("- Invariant groups (`Invariants(.group)`): `.all`, `.chunks`, `.tasks`, `.protocolAndSync`, "
                     + "`.convergence`. Invariants (`Invariants(.T2, .T4)`):")
        lines += InvariantID.allCases.map { "  - `\($0.rawValue)`: \($0.summary)" }
        heading("Adding a scenario, rebuilding, running")
        lines += [
            "1. Write it as a `public static let` in an `extension Catalog` in a file of `Scenarios/`, with a `///`",
            "   comment saying which field behaviour it reproduces.",
            "2. Add it to `Catalog.all` in `Scenarios/Catalog.swift` (Swift on Linux has no runtime discovery).",
            "3. Rebuild: `swift build` (the binary is `.build/debug/syncsim`), or `swift run syncsim ...` which",
            "   rebuilds first. A `syncsim` on your PATH runs the scenarios it was built with: reinstall it after",
            "   adding one, with `make install PREFIX=~/.local` (release build into `~/.local/bin`; put that on the",
            "   PATH), so every printed `reproduce:` line works when pasted.",
            "4. Run it: `syncsim run NAME` (each failure prints a `reproduce:` line to paste), `--shrink` to reduce a",
            "   failure (`--shrink-out FILE` writes the reduced scenario as a compilable `extension Catalog`).",
            "5. Regenerate the compiled printouts the tests check:",
            "   `SYNCSIM_WRITE_PRINTED_CATALOG=1 swift test --filter PrintedCatalog`.",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: - Entries

    static let topology: [Entry] = [
        Entry(word: "Scenario", signature: "Scenario(_ name: String, summary: String, seeds: [UInt64], "
              + "tags: [ScenarioTag] = [], runLength: SimDuration = .minutes(10)) { ... }",
              about: "A named scenario: a body of the words below, pinned seeds, tags for `syncsim run --tag` "
              + "(`.sending`, `.history`, `.connection`, `.fieldBug`, `.sweep`, `.photo`, `.slow`, or a string), "
              + "a run length in virtual time.",
              example: "Scenario(\"reconnect-during-send\", summary: \"...\", seeds: [1, 2, 3], tags: [.sending]) { ... }"),
        Entry(word: "Server", signature: "Server(parameters: ParameterSet = [:], history: KeyValuePairs<String, Int> = [:], "
              + "clockOffset: SimDuration = .zero)",
              about: "The virtual server; `history` seeds chats with that many messages; `clockOffset` shifts its clock.",
              example: "Server(history: [\"alice+bob\": 300])"),
        Entry(word: "Client", signature: "Client(_ name: String, profile: ProfileName, parameters: ParameterSet = [:], "
              + "mutant: String? = nil)",
              about: "A simulated phone on an access link of that profile, running the reference engine (or a mutant).",
              example: "Client(\"alice\", profile: .edge, parameters: [\"historyPageSize\": 40])"),
        Entry(word: "Device", signature: "Device(_ user: String, _ device: String, profile: ProfileName = .wifi, "
              + "parameters: ParameterSet = [:])",
              about: "A second device of a user, named `\"user:device\"` in steps: own engine, database and link, "
              + "logged in as that user (posts, reads, syncs as it; gets the user's own messages by push).",
              example: "Device(\"alice\", \"tablet\")"),
        Entry(word: "Chat", signature: "Chat(_ name: String, members: [String])",
              about: "A chat with explicit members (chats named `\"a+b\"` need no declaration).",
              example: "Chat(\"team\", members: [\"alice\", \"bob\", \"carol\"])"),
        Entry(word: "LinkProfile", signature: "LinkProfile(name: String, source: String, uplink: LinkDirectionProfile, "
              + "downlink: LinkDirectionProfile)",
              about: "A link profile of the scenario's own (a network cell beside the catalog's), which `Client`, "
              + "`Device` and `Handover` name by its string; each direction takes rate, one-way delay, jitter, "
              + "reordering, queue, loss, CoDel, outages and delay spikes (docs/models.md).",
              example: "LinkProfile(name: \"LTE-M\", source: \"assumption\", uplink: .init(rateBitsPerSecond: "
              + "375_000, oneWayDelay: .milliseconds(150)), downlink: .init(rateBitsPerSecond: 1_000_000, "
              + "oneWayDelay: .milliseconds(150), loss: .bernoulli(probability: 0.01)))"),
        Entry(word: "Timeline", signature: "Timeline { At / After / When ... }",
              about: "The steps, in the order written (`if` and `for` allowed).",
              example: "Timeline { At(.seconds(1)) { OpenChat(\"alice\", \"alice+bob\") } }"),
        Entry(word: "Expect", signature: "Expect { Invariants / Eventually / Always / Never / MetricBound ... }",
              about: "What a run must show.", example: "Expect { Invariants(.all) }"),
    ]

    static let timeline: [Entry] = [
        Entry(word: "At", signature: "At(_ time: SimDuration) { actions }",
              about: "Actions at this offset from the run's start.",
              example: "At(.seconds(1)) { Send(from: \"alice\", text: \"hi\", in: \"alice+bob\") }"),
        Entry(word: "After", signature: "After(_ delay: SimDuration, step: String? = nil) { actions }",
              about: "Actions `delay` after the previous timed step's start, or after the timed step labelled `step`.",
              example: "After(.seconds(2), step: \"send\") { LinkDown(\"alice\", for: .seconds(8)) }"),
        Entry(word: "When", signature: "When(_ event: ProtocolEvent) { actions }",
              about: "Actions at the instant a protocol event occurs (see below); never scheduled ahead.",
              example: "When(.server(receives: .login, from: \"bob\").nth(2)) { "
              + "PostFromOtherDevice(\"alice\", text: \"race\", in: \"alice+bob\") }"),
        Entry(word: ".named", signature: "action.named(_ label: String)",
              about: "Labels a step, for `After(step:)`, `Eventually(after:)`, `Always(from:until:)`, "
              + "`HoldResponses(until:)` and metric windows. Labels are unique.",
              example: "Send(from: \"alice\", text: \"hi\", in: \"alice+bob\").named(\"send\")"),
    ]

    static let events: [Entry] = [
        Entry(word: ".server(receives:from:)", signature: ".server(receives: Opcode, from: String? = nil)",
              about: "A request reached the server (from that client, any when nil), *before* the server processes it.",
              example: DSLLiteral.event(.server(receives: .login, from: "bob"))),
        Entry(word: ".server(answers:to:)", signature: ".server(answers: Opcode, to: String? = nil)",
              about: "The server sent its response or error to such a request, *after* processing it.",
              example: DSLLiteral.event(.server(answers: .msgSend, to: "alice"))),
        Entry(word: ".client(_:receives:_:)", signature: ".client(_ client: String, receives: Opcode, _ kind: Command? = nil)",
              about: "A packet of that opcode (and kind) reached the client, *after* its engine handled it.",
              example: DSLLiteral.event(.client("alice", receives: .msgSend, .response))),
        Entry(word: ".connected", signature: ".connected(_ client: String)",
              about: "The client's chat connection was established (after the engine was told).",
              example: DSLLiteral.event(.connected("alice"))),
        Entry(word: ".disconnected", signature: ".disconnected(_ client: String)",
              about: "The client's chat connection closed or broke (after the engine was told).",
              example: DSLLiteral.event(.disconnected("alice"))),
        Entry(word: ".nth", signature: "event.nth(_ k: Int)", about: "The `k`th occurrence (from 1) instead of the first.",
              example: DSLLiteral.event(.connected("alice").nth(3))),
    ]

    static let expectations: [Entry] = {
        let samples = Scenario("sample", summary: "s", seeds: [1]) {
            Client("alice", profile: .edge)
            Client("bob", profile: .edge)
            Timeline { At(.seconds(1)) { Send(from: "alice", text: "hi", in: "alice+bob").named("send") } }
            Expect {
                Invariants(.tasks)
                Eventually(within: .minutes(2), .serverMessageCount(chat: "alice+bob", count: 1))
                Eventually(within: .seconds(30), after: "send", .queueDrained(client: "alice"))
                Always(.textOnScreen(client: "alice", chat: "alice+bob", text: "hi"), from: "send")
                Never(.serverMessageCount(chat: "alice+bob", count: 2), until: .time(.minutes(5)))
                MetricBound("reconnects", atMost: 5)
                MetricBound("requests", client: "alice", opcode: .chatMark, window: MetricWindow(from: "send"), atMost: 1)
            }
        }.expectationLines
        return [
            Entry(word: "Invariants", signature: "Invariants(_ group: InvariantGroup) / Invariants(_ ids: InvariantID...)",
                  about: "The invariants the checkers enforce (see Values).", example: samples[0]),
            Entry(word: "Eventually", signature: "Eventually(within: SimDuration, after: String? = nil, _ condition: "
                  + "Condition)",
                  about: "The condition must hold at some point by the deadline: from the run's start, or from the "
                  + "labelled step (a step that never runs is a failure).", example: samples[1]),
            Entry(word: "Eventually (after)", signature: "Eventually(within:after:_:)",
                  about: "Deadline counted from a labelled step.", example: samples[2]),
            Entry(word: "Eventually (custom)", signature: "Eventually(_ label: String, within: SimDuration, after: "
                  + "String? = nil, clients: [String]? = nil) { world in Bool }",
                  about: "A predicate over the probe, named `label` in reports; `clients` are kept by shrinking.",
                  example: "Eventually(\"alice sees 3\", within: .seconds(30), clients: [\"alice\"]) { "
                  + "$0.screen(of: \"alice\").visibleMessageIds.count >= 3 }"),
            Entry(word: "Always", signature: "Always(_ condition: Condition, from: Moment? = nil, until: Moment? = nil)",
                  about: "Must hold after every world step in [from, until) (the whole run by default); a custom "
                  + "form takes a label, `clients:` and a closure.", example: samples[3]),
            Entry(word: "Never", signature: "Never(_ condition: Condition, from: Moment? = nil, until: Moment? = nil)",
                  about: "Must not hold after any world step of the window (an `Always` negated).", example: samples[4]),
            Entry(word: "MetricBound", signature: "MetricBound(_ metric: String, atLeast: Double? = nil, "
                  + "atMost: Double? = nil)",
                  about: "A bound on a run metric (see Metrics), inclusive.", example: samples[5]),
            Entry(word: "MetricBound (windowed)", signature: "MetricBound(_ metric: String, client: String? = nil, "
                  + "opcode: Opcode? = nil, window: MetricWindow? = nil, atLeast:, atMost:)",
                  about: "A bound on a per-client count (`WindowMetric`) over a window, as the world saw it on the "
                  + "wire; every client summed when `client` is nil.", example: samples[6]),
        ]
    }()

    static let moments: [Entry] = [
        Entry(word: "Moment", signature: "\"label\" / .time(SimDuration) / .seconds(Int) / .milliseconds(Int)",
              about: "A point of the run: when a labelled step ran (a string literal), or a time from the start.",
              example: "Always(.loggedIn(client: \"alice\"), from: .seconds(5), until: \"drop\")"),
        Entry(word: "MetricWindow", signature: "MetricWindow(from: Moment? = nil, until: Moment? = nil) / "
              + ".from(_:until:) / .until(_:) / .wholeRun",
              about: "A window [from, until) for a windowed `MetricBound`; a `from` step that never runs counts 0.",
              example: "window: .from(\"opened\", until: .seconds(60))"),
    ]

    static let probe: [(String, String)] = [
        ("now", "the current virtual time (`SimInstant`)"),
        ("serverMessages(in:)", "the chat's whole server history, oldest first (`[ChatMessage]`)"),
        ("serverMessageCount(from:in:)", "messages of the chat the client's user sent, from any device"),
        ("readMark(of:in:)", "the server's read mark of the client's user in the chat (message id), or nil"),
        ("cdnUploads", "photo uploads the CDN stored (`[CDNUpload]`: token, size in bytes)"),
        ("screen(of:)", "`ClientScreen`: open chat, visible message ids, local echoes (chat, cid, text)"),
        ("cachedMessages(of:in:)", "the client's cached messages of the chat, oldest first (echoes excluded)"),
        ("chunks(of:in:) / chunkCount(of:in:)", "the client's chunks (contiguous id ranges) for the chat"),
        ("tasks(of:) / pendingTaskCount(of:)", "the client's task queue (`[TaskSnapshot]`: kind, state, chat, cid, "
         + "attempts, message id) / how many are pending"),
        ("isLoggedIn(_:)", "whether the client is connected and logged in"),
        ("windowMetrics(of:from:until:) / windowMetrics(of:)", "`WindowMetrics` over [from, until) (or so far): "
         + "requests by opcode, reconnects, logins, uploads started, pushes received by opcode"),
        ("instant(ofStep:)", "when the labelled step ran, or nil"),
        ("hasConverged", "every client's chat list and loaded history equal the server's (V1's comparison)"),
        ("clientNames", "every client name, devices included, in topology order"),
    ]

    static func windowMetricMeaning(_ metric: WindowMetric) -> String {
        switch metric {
        case .requests: "requests the client sent (of `opcode` when given)"
        case .reconnects: "connection attempts after the client's first"
        case .logins: "successful LOGIN responses the client received"
        case .uploadsStarted: "CDN uploads the client started"
        case .pushesReceived: "pushes the client received (of `opcode` when given)"
        }
    }

    // MARK: - Actions

    /// One sample of every action, in the order the reference lists them.
    public static let actionSamples: [Action] = [
        .openChat(client: "alice", chat: "alice+bob"),
        .closeChat(client: "alice", chat: "alice+bob"),
        .scroll(client: "alice", chat: "alice+bob", direction: .up, messages: 60),
        .scroll(client: "alice", chat: "alice+bob", direction: .down, messages: 20),
        .sendText(client: "alice", chat: "alice+bob", text: "hi"),
        .sendPhoto(client: "alice", chat: "alice+bob", bytes: 180_000, caption: "cat"),
        .sendPhotos(client: "alice", chat: "alice+bob", count: 3, bytes: 60_000, caption: "trip"),
        .markRead(client: "alice", chat: "alice+bob"),
        .postFromOtherDevice(client: "alice", chat: "alice+bob", text: "from the web"),
        .editMessage(client: "bob", chat: "alice+bob", text: "see you at 7"),
        .deleteMessage(client: "bob", chat: "alice+bob"),
        .background(client: "alice"),
        .foreground(client: "alice"),
        .restartApp(client: "alice"),
        .crashApp(client: "alice"),
        .check(.loggedIn(client: "alice")),
        .linkDown(client: "alice", mode: .silently),
        .outage(client: "alice", duration: .seconds(8), mode: .withReset),
        .linkUp(client: "alice"),
        .connectivity(client: "alice", change: .lost),
        .lossBurst(client: "alice", duration: .seconds(5), lossRate: 0.3),
        .delaySpike(client: "alice", extraDelay: .seconds(2), duration: .seconds(10)),
        .clog(client: "alice"),
        .release(client: "alice"),
        .changeProfile(client: "alice", profile: .edge),
        .halfOpen(client: "alice"),
        .skewClock(client: "alice", offset: .minutes(-5)),
        .serverRestart(downtime: .seconds(3)),
        .delayResponses(opcode: .chatHistory, extraDelay: .seconds(3), duration: .seconds(2)),
        .holdResponses(opcode: .msgSend, client: "alice", until: .step("release")),
        .loseResponses(opcode: .msgSend, count: 1, client: "alice"),
        .errorReplies(opcode: .login, count: 3),
        .pushLoss(client: "bob", probability: 0.5, duration: .seconds(30)),
        .pushDuplication(client: nil, probability: 0.2, duration: .seconds(30)),
        .delayPushes(client: "bob", extraDelay: .seconds(3), duration: .seconds(20)),
        .capLogin(chats: 1),
    ]

    /// The reference entry of `action`'s word; every `Action` case has one.
    public static func entry(for action: Action) -> Entry {
        let example = Scenario.actionSource(action)
        func make(_ word: String, _ signature: String, _ about: String) -> Entry {
            Entry(word: word, signature: signature, about: about, example: example)
        }
        switch action {
        case .openChat: return make("OpenChat", "OpenChat(_ client: String, _ chat: String)",
                                    "The user opens the chat (the engine loads its newest page).")
        case .closeChat: return make("CloseChat", "CloseChat(_ client: String, _ chat: String)",
                                     "The user leaves the chat (nothing when another, or none, is open).")
        case .scroll(_, _, .up, _): return make("ScrollUp", "ScrollUp(_ client: String, in: String, messages: Int)",
                                               "Scrolls the chat up by `messages` messages (opens it first if needed).")
        case .scroll: return make("ScrollDown", "ScrollDown(_ client: String, in: String, messages: Int)",
                                  "Scrolls the chat down by `messages` messages.")
        case .sendText: return make("Send", "Send(from: String, text: String, in: String)",
                                    "The user sends a text (a send task with a cid).")
        case .sendPhoto: return make("SendPhoto", "SendPhoto(from: String, bytes: Int, caption: String = \"\", in: String)",
                                     "Processes, uploads `bytes` bytes to the CDN, then sends the photo message.")
        case .sendPhotos:
            return make("SendPhotos",
                        "SendPhotos(from: String, count: Int, bytes: Int, caption: String = \"\", in: String)",
                        "One message with `count` photos of `bytes` bytes: each processed and uploaded, then the send.")
        case .markRead: return make("MarkRead", "MarkRead(_ client: String, _ chat: String)",
                                    "The user reads the chat up to its newest cached message (CHAT_MARK).")
        case .postFromOtherDevice:
            return make("PostFromOtherDevice", "PostFromOtherDevice(_ client: String, text: String, in: String)",
                        "The user posts from outside the simulation (web): stored now, pushed to every member's "
                        + "device, the poster's own included.")
        case .editMessage:
            return make("EditMessage", "EditMessage(from: String, in: String, text: String)",
                        "Another device of the user edits the user's newest message in the chat (MSG_EDIT): "
                        + "stored as EDITED, pushed to every connected member.")
        case .deleteMessage:
            return make("DeleteMessage", "DeleteMessage(from: String, in: String)",
                        "Another device of the user deletes the user's newest message in the chat (MSG_DELETE): "
                        + "kept as a REMOVED tombstone, NOTIF_MSG_DELETE to every connected member.")
        case .background: return make("Background", "Background(_ client: String)",
                                      "The app goes to the background; the OS suspends it after 5 s.")
        case .foreground: return make("Foreground", "Foreground(_ client: String)", "The app comes back.")
        case .restartApp: return make("RestartApp", "RestartApp(_ client: String)",
                                      "The app is closed cleanly and reopened from its database.")
        case .crashApp: return make("CrashApp", "CrashApp(_ client: String)",
                                    "The app dies (uncommitted work lost) and is reopened.")
        case .check: return make("Check", "Check(_ condition: Condition) / Check(_ label: String, clients: [String]? "
                                 + "= nil) { world in Bool }",
                                 "A checkpoint: the condition must hold at this instant. No side effect.")
        case .linkDown: return make("LinkDown", "LinkDown(_ client: String, _ mode: DisconnectMode = .silently)",
                                    "(fault) The link carries nothing until `LinkUp`; `.withReset` sends RSTs to both ends.")
        case .outage: return make("LinkDown (for:)", "LinkDown(_ client: String, for: SimDuration, _ mode: "
                                  + "DisconnectMode = .silently)", "(fault) The link is down for a while, then up.")
        case .linkUp: return make("LinkUp", "LinkUp(_ client: String)", "(fault) The link works again.")
        case .connectivity: return make("Connectivity", "Connectivity(_ client: String, _ change: ConnectivityChange)",
                                        "(fault) The OS tells the app its network is `.lost` (link down silently) or "
                                        + "`.restored` (link up); the engine may reconnect at once.")
        case .lossBurst: return make("LossBurst", "LossBurst(_ client: String, for: SimDuration, lossRate: Double)",
                                     "(fault) Each packet is lost with probability `lossRate` (0...1) for a while.")
        case .delaySpike: return make("DelaySpike", "DelaySpike(_ client: String, by: SimDuration, for: SimDuration)",
                                      "(fault) One-way delay grows by `by` for a while (RFC 3481 §2.4).")
        case .clog: return make("Clog", "Clog(_ client: String)",
                                "(fault) The link accepts packets but delivers none until `Release`.")
        case .release: return make("Release", "Release(_ client: String)", "(fault) A clogged link delivers and works.")
        case .changeProfile: return make("Handover", "Handover(_ client: String, to: ProfileName)",
                                         "(fault) The client moves to another link profile; connections survive.")
        case .halfOpen: return make("HalfOpen", "HalfOpen(_ client: String)",
                                    "(fault) The client's connections go half-open (NAT rebinding): no FIN, no RST.")
        case .skewClock: return make("SkewClock", "SkewClock(_ client: String, by: SimDuration)",
                                     "(fault) The device clock moves against server time (negative: behind).")
        case .serverRestart: return make("ServerRestart", "ServerRestart(downtime: SimDuration = .zero)",
                                         "(fault) Connections drop, data stays; SYNs refused for `downtime`.")
        case .delayResponses: return make("DelayResponses", "DelayResponses(to: Opcode, by: SimDuration, for: "
                                          + "SimDuration, of: String? = nil)",
                                          "(fault) Requests (of one client or any) arriving within `for` are processed "
                                          + "`by` later (responses overtake each other).")
        case .holdResponses: return make("HoldResponses", "HoldResponses(to: Opcode, of: String? = nil, until: Moment)",
                                         "(fault) The server processes now but holds the responses until the moment, "
                                         + "then sends them in order (one whose connection closed is lost, or goes "
                                         + "to the device's newest connection with `repliesFollowDevice`).")
        case .loseResponses: return make("LoseResponses", "LoseResponses(to: Opcode, count: Int = 1, of: String? = nil)",
                                         "(fault) The next `count` requests (of one client or any) are handled, their "
                                         + "responses lost.")
        case .errorReplies: return make("ErrorReplies", "ErrorReplies(to: Opcode, count: Int, of: String? = nil)",
                                        "(fault) The next `count` requests (of one client or any) get an error reply.")
        case .pushLoss: return make("PushLoss", "PushLoss(_ client: String? = nil, probability: Double, for: "
                                    + "SimDuration)", "(fault) Pushes (to one client or all) are lost with a probability.")
        case .pushDuplication: return make("PushDuplication", "PushDuplication(_ client: String? = nil, probability: "
                                           + "Double, for: SimDuration)",
                                           "(fault) Pushes are sent twice with a probability.")
        case .delayPushes: return make("DelayPushes", "DelayPushes(to: String, by: SimDuration, for: SimDuration)",
                                       "(fault) Pushes to the client leaving within `for` are held `by` longer "
                                       + "(pushes only; order kept).")
        case .capLogin: return make("CapLogin", "CapLogin(chats: Int)",
                                    "(fault) From now on one LOGIN lists at most `chats` changed chats.")
        }
    }

    // MARK: - Conditions

    /// One sample of every data condition, in the order the reference lists them.
    public static let conditionSamples: [Condition] = [
        .serverMessageCount(chat: "alice+bob", count: 1),
        .serverTexts(chat: "alice+bob", texts: ["hi", "yo"]),
        .serverOrder(chat: "alice+bob", texts: ["first", "second"]),
        .queueDrained(client: "alice"),
        .allQueuesDrained,
        .historyComplete(client: "alice", chat: "alice+bob"),
        .loggedIn(client: "alice"),
        .converged,
        .textOnScreen(client: "alice", chat: "alice+bob", text: "hi"),
        .readUpToNewest(client: "alice", chat: "alice+bob"),
        .photosComplete(chat: "alice+bob", caption: "trip", photos: 3),
        .serverSessions(client: "alice", count: 1),
        .custom(label: "alice shows 3 messages", clients: ["alice"], predicate: { _ in true }),
    ]

    /// The reference entry of a condition.
    public static func entry(for condition: Condition) -> Entry {
        let example = Scenario.conditionSource(condition)
        func make(_ word: String, _ signature: String, _ about: String) -> Entry {
            Entry(word: word, signature: signature, about: about, example: example)
        }
        switch condition {
        case .serverMessageCount: return make(".serverMessageCount", ".serverMessageCount(chat: String, count: Int)",
                                              "The chat's whole server history holds exactly `count` messages.")
        case .serverTexts: return make(".serverTexts", ".serverTexts(chat: String, texts: [String])",
                                       "The chat's *whole* server history, oldest first, is exactly these texts.")
        case .serverOrder: return make(".serverOrder", ".serverOrder(chat: String, texts: [String])",
                                       "Each text is on the server exactly once, in this relative order (others may "
                                       + "sit between).")
        case .queueDrained: return make(".queueDrained", ".queueDrained(client: String)",
                                        "The client's task queue holds no pending task.")
        case .allQueuesDrained: return make(".allQueuesDrained", ".allQueuesDrained", "No client has a pending task.")
        case .historyComplete: return make(".historyComplete", ".historyComplete(client: String, chat: String)",
                                           "The client's cache is one chunk holding every server message of the chat.")
        case .loggedIn: return make(".loggedIn", ".loggedIn(client: String)", "The client is connected and logged in.")
        case .converged: return make(".converged", ".converged",
                                     "Every client's chat list and loaded history equal the server's.")
        case .textOnScreen: return make(".textOnScreen", ".textOnScreen(client: String, chat: String, text: String)",
                                        "The chat is open on the client's screen and shows the text, as a local echo or "
                                        + "a visible message.")
        case .readUpToNewest: return make(".readUpToNewest", ".readUpToNewest(client: String, chat: String)",
                                          "The server's read mark of the client's user is the chat's newest message.")
        case .photosComplete: return make(".photosComplete",
                                          ".photosComplete(chat: String, caption: String, photos: Int)",
                                          "Every server message of the chat with this text carries exactly `photos` "
                                          + "photos; true while there is none (for `Always`).")
        case .serverSessions: return make(".serverSessions", ".serverSessions(client: String, count: Int)",
                                          "The server holds exactly `count` open connections logged in as the "
                                          + "client's user.")
        case .custom: return make(".custom", ".custom(label: String, clients: [String]? = nil, predicate: "
                                  + "(any WorldProbe) -> Bool)",
                                  "Any predicate over the probe (prints as a stub: closures cannot be printed).")
        }
    }
}

extension Scenario {
    /// The `Expect` block's lines as `dslSource()` prints them.
    var expectationLines: [String] {
        let lines = dslSource().split(separator: "\n").map(String.init)
        guard let start = lines.firstIndex(of: "    Expect {") else { return [] }
        return lines[(start + 1)...].prefix { $0 != "    }" }.map { String($0.drop { $0 == " " }) }
    }
}

extension DSLLiteral {
    /// Opcode names the printer knows, as (wire name, Swift name).
    static var opcodeNames: [(String, String)] {
        namedOpcodes.map { ("\($0.0)", $0.1) }
    }

    /// A protocol event as the printer writes it.
    static func event(_ event: ProtocolEvent) -> String { Scenario.eventSource(event) }
}

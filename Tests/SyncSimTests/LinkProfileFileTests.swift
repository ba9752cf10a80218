import Foundation
import Testing
@testable import SyncSim

private let minimalProfile = """
    {"name": "LTE-M", "source": "assumption", "downlink": {"rateBitsPerSecond": 1000000, "oneWayDelayMs": 150},
     "uplink": {"rateBitsPerSecond": 375000, "oneWayDelayMs": 150.5}}
    """

@Suite struct LinkProfileFileTests {
    private func parse(_ text: String) throws -> [LinkProfile] {
        try LinkProfileFile.parse(Data(text.utf8), file: "cells.json")
    }

    private func message(_ text: String) -> String {
        do {
            _ = try parse(text)
            return "parsed"
        } catch {
            return "\(error)"
        }
    }


    @Test("a minimal profile takes LinkDirectionProfile's defaults; the array alone is a file too")
    func minimal() throws {
        let profiles = try parse("{\"profiles\": [\(minimalProfile)]}")
        #expect(profiles == [LinkProfile(
            name: "LTE-M", source: "assumption",
            uplink: .init(rateBitsPerSecond: 375_000, oneWayDelay: .microseconds(150_500)),
            downlink: .init(rateBitsPerSecond: 1_000_000, oneWayDelay: .milliseconds(150)))])
        #expect(try parse("[\(minimalProfile)]") == profiles)
    }

    @Test("every optional figure reads into its model")
    func everyFigure() throws {
        let text = """
            [{"name": "x", "source": "s",
              "downlink": {"rateBitsPerSecond": 50000, "oneWayDelayMs": 250, "perPacketOverheadBytes": 40,
                           "jitter": {"uniformMaximumMs": 50}, "reordersPackets": true, "queueCapacityBytes": 9000,
                           "queueCapacityPackets": 6, "loss": {"gilbertElliott": {"p": 0.01, "r": 0.3,
                           "oneMinusH": 0.5, "oneMinusK": 0}}, "activeQueue": {"codel": {"targetMs": 5,
                           "intervalMs": 100}}, "outages": {"scheduled": [{"startMs": 1000, "lengthMs": 500}]},
                           "delaySpikes": {"meanIntervalMs": 60000, "meanLengthMs": 3000, "extraDelayMs": 4000}},
              "uplink": {"rateBitsPerSecond": 20000, "oneWayDelayMs": 250, "jitter": {"exponentialMeanMs": 20},
                         "loss": {"bernoulli": 0.02}, "outages": {"random": {"meanIntervalMs": 600000,
                         "meanLengthMs": 30000}}}}]
            """
        let profile = try #require(try parse(text).first)
        #expect(profile.downlink == LinkDirectionProfile(
            rateBitsPerSecond: 50_000, oneWayDelay: .milliseconds(250), perPacketOverheadBytes: 40,
            jitter: .uniform(maximum: .milliseconds(50)), reordersPackets: true, queueCapacityBytes: 9_000,
            loss: .gilbertElliott(p: 0.01, r: 0.3, oneMinusH: 0.5, oneMinusK: 0),
            outages: .scheduled([OutageWindow(start: .seconds(1), length: .milliseconds(500))]),
            delaySpikes: DelaySpikeModel(meanInterval: .minutes(1), meanLength: .seconds(3), extraDelay: .seconds(4)),
            queueCapacityPackets: 6, activeQueue: .codel(target: .milliseconds(5), interval: .milliseconds(100))))
        #expect(profile.uplink.jitter == .exponential(mean: .milliseconds(20)))
        #expect(profile.uplink.loss == .bernoulli(probability: 0.02))
        #expect(profile.uplink.outages == .random(meanInterval: .minutes(10), meanLength: .seconds(30)))
    }

    @Test("a timed Gilbert-Elliott loss reads from milliseconds and both probabilities")
    func timedGilbertElliott() throws {
        let text = """
            [{"name": "fading", "source": "s",
              "downlink": {"rateBitsPerSecond": 50000, "oneWayDelayMs": 250, "loss": {"gilbertElliottTimed":
                           {"meanGoodMs": 30000, "meanBadMs": 1500, "oneMinusH": 0.8, "oneMinusK": 0.001}}},
              "uplink": {"rateBitsPerSecond": 20000, "oneWayDelayMs": 250}}]
            """
        let profile = try #require(try parse(text).first)
        #expect(profile.downlink.loss == .gilbertElliottTimed(
            meanGood: .seconds(30), meanBad: .milliseconds(1_500), oneMinusH: 0.8, oneMinusK: 0.001))
        #expect(profile.downlink.loss.description == "gilbert-elliott-timed(good=30s,bad=1.5s,1-h=80%,1-k=0.1%)")
    }

    @Test("faults name the file and the JSON path of what is wrong", arguments: [
        ("{\"profiles\": []}", "cells.json: no profiles"),
        ("nonsense", "cells.json: not JSON"),
        ("", "cells.json: empty file (0 bytes)"),
        ("42", "cells.json: expected {\"profiles\": [...]} or an array of profiles, got a single value"),
        ("[{\"name\": \"x\", \"source\": \"s\", \"uplink\": {\"rateBitsPerSecond\": 1e18, \"oneWayDelayMs\": 1},"
            + " \"downlink\": {\"rateBitsPerSecond\": 1, \"oneWayDelayMs\": 1}}]",
         "cells.json: profiles[0].uplink.rateBitsPerSecond: 1e+18 is out of range (at most 9007199254740992)"),
        ("[{\"name\": \"x\", \"source\": \" \", \"uplink\": {\"rateBitsPerSecond\": 1, \"oneWayDelayMs\": 1},"
            + " \"downlink\": {\"rateBitsPerSecond\": 1, \"oneWayDelayMs\": 1}}]",
         "cells.json: profiles[0] 'x': source is empty"),
        ("{\"cells\": []}", "cells.json: the file: unknown key 'cells'; keys: profiles"),
        ("[{\"name\": \"x\", \"source\": \"s\", \"uplink\": {\"rateBitsPerSecond\": 1, \"oneWayDelayMs\": 1}}]",
         "cells.json: profiles[0].downlink: missing"),
        ("[{\"name\": \"x\", \"source\": \"s\", \"uplink\": {\"rateBitsPerSecond\": 1.5, \"oneWayDelayMs\": 1},"
            + " \"downlink\": {\"rateBitsPerSecond\": 1, \"oneWayDelayMs\": 1}}]",
         "cells.json: profiles[0].uplink.rateBitsPerSecond:"),
        ("[{\"name\": \"x\", \"source\": \"s\", \"uplink\": {\"rateBitsPerSecond\": 1, \"oneWayDelayMs\": 1,"
            + " \"lossRate\": 0.1}, \"downlink\": {\"rateBitsPerSecond\": 1, \"oneWayDelayMs\": 1}}]",
         "cells.json: profiles[0].uplink: unknown key 'lossRate'; keys: rateBitsPerSecond"),
        ("[{\"name\": \"x\", \"source\": \"s\", \"uplink\": {\"rateBitsPerSecond\": 1, \"oneWayDelayMs\": 1,"
            + " \"loss\": {\"bernoulli\": 1.5}}, \"downlink\": {\"rateBitsPerSecond\": 1, \"oneWayDelayMs\": 1}}]",
         "cells.json: profiles[0] 'x': uplink: loss probability 1.5 is not in 0...1"),
        ("[{\"name\": \"x\", \"source\": \"s\", \"uplink\": {\"rateBitsPerSecond\": -1, \"oneWayDelayMs\": 1},"
            + " \"downlink\": {\"rateBitsPerSecond\": 1, \"oneWayDelayMs\": 1}}]",
         "cells.json: profiles[0] 'x': uplink: rate -1 bit/s is negative"),
        ("[{\"name\": \"x\", \"source\": \"s\", \"uplink\": {\"rateBitsPerSecond\": 1, \"oneWayDelayMs\": 1,"
            + " \"jitter\": {\"uniformMaximumMs\": 1, \"exponentialMeanMs\": 1}},"
            + " \"downlink\": {\"rateBitsPerSecond\": 1, \"oneWayDelayMs\": 1}}]",
         "cells.json: profiles[0].uplink.jitter: expected one of uniformMaximumMs, exponentialMeanMs"),
        ("[{\"name\": \"edge\", \"source\": \"s\", \"uplink\": {\"rateBitsPerSecond\": 1, \"oneWayDelayMs\": 1},"
            + " \"downlink\": {\"rateBitsPerSecond\": 1, \"oneWayDelayMs\": 1}}]",
         "cells.json: profiles[0]: name 'edge' is the catalog's 'EDGE'; choose another"),
        ("[\(minimalProfile), \(minimalProfile)]", "cells.json: profiles[1]: name 'LTE-M' is given twice"),
        ("[{\"name\": \"x\", \"source\": \"s\", \"uplink\": {\"rateBitsPerSecond\": 1, \"oneWayDelayMs\": 1,"
            + " \"queueCapacityBytes\": 150}, \"downlink\": {\"rateBitsPerSecond\": 1, \"oneWayDelayMs\": 1}}]",
         "cells.json: profiles[0] 'x': uplink: queue capacity 150 B holds no full-size packet (1500 B); give at least "
            + "1500 B, or queueCapacityPackets for a buffer counted in packets"),
        ("[{\"name\": \"x\", \"source\": \"s\", \"uplink\": {\"rateBitsPerSecond\": 1, \"oneWayDelayMs\": 1,"
            + " \"loss\": {\"gilbertElliottTimed\": {\"meanGoodMs\": 1000, \"meanBadMs\": 0, \"oneMinusH\": 1,"
            + " \"oneMinusK\": 0}}}, \"downlink\": {\"rateBitsPerSecond\": 1, \"oneWayDelayMs\": 1}}]",
         "cells.json: profiles[0] 'x': uplink: timed Gilbert-Elliott mean bad time 0s must be positive"),
        ("[{\"name\": \"x\", \"source\": \"s\", \"uplink\": {\"rateBitsPerSecond\": 1, \"oneWayDelayMs\": 1,"
            + " \"loss\": {\"gilbertElliottTimed\": {\"meanGoodMs\": 1000, \"oneMinusH\": 1,"
            + " \"oneMinusK\": 0}}}, \"downlink\": {\"rateBitsPerSecond\": 1, \"oneWayDelayMs\": 1}}]",
         "cells.json: profiles[0].uplink.loss.gilbertElliottTimed.meanBadMs: missing"),
        ("[{\"name\": \"a b\", \"source\": \"s\", \"uplink\": {\"rateBitsPerSecond\": 1, \"oneWayDelayMs\": 1},"
            + " \"downlink\": {\"rateBitsPerSecond\": 1, \"oneWayDelayMs\": 1}}]",
         "cells.json: profiles[0] 'a b': name 'a b' must be non-empty, without spaces or commas"),
        // Figures the link's Int64 nanosecond arithmetic cannot take: each trapped a sweep or explore (session 39).
        ("[{\"name\": \"x\", \"source\": \"s\", \"uplink\": {\"rateBitsPerSecond\": 1, \"oneWayDelayMs\": 8.9e12,"
            + " \"jitter\": {\"uniformMaximumMs\": 8.9e12}}, \"downlink\": {\"rateBitsPerSecond\": 1, \"oneWayDelayMs\": 1}}]",
         "cells.json: profiles[0] 'x': uplink: one-way delay 8900000000s is longer than"),
        ("[{\"name\": \"x\", \"source\": \"s\", \"uplink\": {\"rateBitsPerSecond\": 1, \"oneWayDelayMs\": 1,"
            + " \"perPacketOverheadBytes\": 9007199254740992}, \"downlink\": {\"rateBitsPerSecond\": 1, \"oneWayDelayMs\": 1}}]",
         "cells.json: profiles[0] 'x': uplink: per-packet overhead 9007199254740992 B is above 65536 B"),
        ("[{\"name\": \"x\", \"source\": \"s\", \"uplink\": {\"rateBitsPerSecond\": 1, \"oneWayDelayMs\": 1,"
            + " \"outages\": {\"scheduled\": [{\"startMs\": 8e12, \"lengthMs\": 8e12}]}},"
            + " \"downlink\": {\"rateBitsPerSecond\": 1, \"oneWayDelayMs\": 1}}]",
         "cells.json: profiles[0] 'x': uplink: outage window start 8000000000s is longer than"),
        ("[{\"name\": \"x\", \"source\": \"s\", \"uplink\": {\"rateBitsPerSecond\": 1, \"oneWayDelayMs\": 1,"
            + " \"delaySpikes\": {\"meanIntervalMs\": 1000, \"meanLengthMs\": 8e12, \"extraDelayMs\": 1}},"
            + " \"downlink\": {\"rateBitsPerSecond\": 1, \"oneWayDelayMs\": 1}}]",
         "cells.json: profiles[0] 'x': uplink: delay spike mean length 8000000000s is longer than"),
        // A mean gap of nanoseconds: a run of minutes takes about 10^11 link events (it never ended).
        ("[{\"name\": \"x\", \"source\": \"s\", \"uplink\": {\"rateBitsPerSecond\": 1, \"oneWayDelayMs\": 1,"
            + " \"delaySpikes\": {\"meanIntervalMs\": 0.000001, \"meanLengthMs\": 0, \"extraDelayMs\": 1}},"
            + " \"downlink\": {\"rateBitsPerSecond\": 1, \"oneWayDelayMs\": 1}}]",
         "cells.json: profiles[0] 'x': uplink: delay spike mean interval"),
        ("[{\"name\": \"x\", \"source\": \"s\", \"uplink\": {\"rateBitsPerSecond\": 1, \"oneWayDelayMs\": 1,"
            + " \"outages\": {\"random\": {\"meanIntervalMs\": 0.000001, \"meanLengthMs\": 0}}},"
            + " \"downlink\": {\"rateBitsPerSecond\": 1, \"oneWayDelayMs\": 1}}]",
         "cells.json: profiles[0] 'x': uplink: outage mean interval"),
        // Syntax Foundation took without a word: a key given twice kept one of its values, a trailing comma passed,
        // and a file cut short named no place (session 39).
        ("[{\"name\": \"x\", \"source\": \"s\", \"uplink\": {\"rateBitsPerSecond\": 1000,\n"
            + "  \"rateBitsPerSecond\": 2000000, \"oneWayDelayMs\": 1},"
            + " \"downlink\": {\"rateBitsPerSecond\": 1, \"oneWayDelayMs\": 1}}]",
         "cells.json: not JSON: line 2, column 3: key \"rateBitsPerSecond\" is given twice in one object"),
        ("[{\"name\": \"x\", \"source\": \"s\", \"uplink\": {\"rateBitsPerSecond\": 1, \"oneWayDelayMs\": 1,},"
            + " \"downlink\": {\"rateBitsPerSecond\": 1, \"oneWayDelayMs\": 1}}]",
         "cells.json: not JSON: line 1, column 85: expected a key in quotes, found '}' (a comma before '}' is not JSON)"),
        ("[\(minimalProfile),\n]", "cells.json: not JSON: line 3, column 1: expected a value, found ']' (a comma before ']' is not JSON)"),
        ("{\"profiles\": [\n  {\"name\": \"x\",", "cells.json: not JSON: line 2, column 16: expected a key in quotes, found the end of the file"),
        ("[{\"name\": \"x\\u0007y\", \"source\": \"s\", \"uplink\": {\"rateBitsPerSecond\": 1, \"oneWayDelayMs\": 1},"
            + " \"downlink\": {\"rateBitsPerSecond\": 1, \"oneWayDelayMs\": 1}}]",
         "cells.json: profiles[0] 'x\\u{07}y': name \"x\\u{07}y\" holds a control character"),
        ("[{\"name\": \"\(String(repeating: "n", count: 65))\", \"source\": \"s\", \"uplink\": {\"rateBitsPerSecond\": 1,"
            + " \"oneWayDelayMs\": 1}, \"downlink\": {\"rateBitsPerSecond\": 1, \"oneWayDelayMs\": 1}}]",
         "cells.json: profiles[0] '\(String(repeating: "n", count: 40))…': name of 65 characters is longer than 64"),
    ])
    func faults(text: String, expected: String) {
        let text = message(text)
        #expect(text.hasPrefix(expected), "\(text)")
    }

    @Test("Examples/link-profiles.json reads, and its profiles run")
    func example() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Examples/link-profiles.json")
        let profiles = try LinkProfileFile.parse(try Data(contentsOf: path), file: path.path)
        #expect(profiles.map(\.name) == [
            "2G-urban", "3G-good", "EDGE-bursty", "3G-jittery", "GPRS-small-buffer", "EDGE-spiky",
        ])
        #expect(profiles.allSatisfy { $0.problems().isEmpty && !$0.source.isEmpty })
    }

    @Test("the explore example files read, and explore takes every one of their cells", arguments: [
        ("Examples/link-profiles-hostile.json",
         ["GSM-CSD", "GEO-satellite", "3G-congested", "asymmetric-16k-up", "jitter-2s", "one-packet-buffer"]),
        ("Examples/link-profiles-bursty.json",
         ["GE-bursty-10", "EDGE-gemodel", "EDGE-congested-bursty", "fading-bursty-20", "EDGE-fading-2s"]),
        ("Examples/link-profiles-slow-deep.json", ["far-lossy-9k6", "bufferbloat-2000", "jitter-exp-800ms"]),
        ("Examples/link-profiles-mixed.json",
         ["train-edge-fades", "codel-spiky-3g", "gprs-overhead-tiny-queue", "asym-reorder-outages"]),
    ])
    func exploreExamples(file: String, names: [String]) throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(file)
        let profiles = try LinkProfileFile.parse(try Data(contentsOf: path), file: path.path)
        #expect(profiles.map(\.name) == names)
        #expect(profiles.allSatisfy { $0.problems().isEmpty && !$0.source.isEmpty })
        #expect(profiles.allSatisfy { ExploreGenerator.reasonToRefuse($0) == nil })
    }
}

/// The strict syntax check ahead of Foundation's parser (`JSONSyntaxCheck`): it passes what RFC 8259 allows and
/// names the line and column of what it does not.
@Suite struct JSONSyntaxCheckTests {
    @Test("valid JSON passes", arguments: [
        "{}", "[]", " [1, -0, 0.5, 1e3, -2.5E-2, true, false, null] ", "{\"a\": {\"b\": [{}]}, \"c\": \"\\u00e9\\n\\\"\"}",
        "\u{FEFF}{\"bom\": 1}", "\"a string alone\"", "{\"a\": 1, \"A\": 2}",
    ])
    func valid(text: String) {
        #expect(JSONSyntaxCheck.firstProblem(in: Array(text.utf8)) == nil)
    }

    @Test("invalid JSON is named by line and column", arguments: [
        ("{\"a\": 1,}", "line 1, column 9: expected a key in quotes, found '}' (a comma before '}' is not JSON)"),
        ("[1,\n 2,]", "line 2, column 4: expected a value, found ']' (a comma before ']' is not JSON)"),
        ("{\"a\": 1, \"a\": 2}", "line 1, column 10: key \"a\" is given twice in one object"),
        ("{\"a\": 01}", "line 1, column 8: a number may not start with 0 followed by digits"),
        ("[1.]", "line 1, column 4: expected a digit after '.', found ']'"),
        ("[\"tab\there\"]", "line 1, column 6: a control character (byte 0x9) inside a string; write it escaped"),
        ("[\"\\x\"]", "line 1, column 4: unknown escape \\x"),
        ("[tru]", "line 1, column 2: expected a value, found 't'"),
        ("{\"a\": 1} x", "line 1, column 10: more text after the JSON value"),
        ("[\"open", "line 1, column 2: a string is not closed"),
        ("", "line 1, column 1: expected a value, found the end of the file"),
        (String(repeating: "[", count: 65), "line 1, column 65: nested deeper than 64"),
    ])
    func invalid(text: String, expected: String) {
        #expect(JSONSyntaxCheck.firstProblem(in: Array(text.utf8))?.description == expected)
    }
}

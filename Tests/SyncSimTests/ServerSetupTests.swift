import Testing
@testable import SyncSim

@Suite struct ServerSetupTests {
    /// field17: `processingDelay` and `processingJitter` set together (as `replay --emit-scenario` writes them, and as
    /// a user writes "3 s slow with 2 s of jitter") made the server wait only the jitter: the second knob replaced the
    /// first. Both together are the delay plus a uniform draw up to the jitter, whichever comes first.
    @Test("processingDelay and processingJitter together are the delay plus the jitter, in either order",
          arguments: [true, false])
    func delayAndJitterAdd(delayFirst: Bool) throws {
        let delay: (String, ParameterValue) = ("processingDelay", .duration(.seconds(3)))
        let jitter: (String, ParameterValue) = ("processingJitter", .duration(.seconds(2)))
        var parameters: ParameterSet = [:]
        for (key, value) in delayFirst ? [delay, jitter] : [jitter, delay] { parameters[key] = value }
        let setup = try ServerSetup(ServerSpec(parameters: parameters))
        #expect(setup.knobs.defaultProcessingDelay == .uniform(.seconds(3), .seconds(5)))
    }

    @Test("processingDelay alone is fixed, processingJitter alone is uniform from zero, neither is no delay")
    func eachAlone() throws {
        let fixed = try ServerSetup(ServerSpec(parameters: ["processingDelay": .duration(.seconds(3))]))
        #expect(fixed.knobs.defaultProcessingDelay == .fixed(.seconds(3)))
        let jittered = try ServerSetup(ServerSpec(parameters: ["processingJitter": .duration(.milliseconds(300))]))
        #expect(jittered.knobs.defaultProcessingDelay == .uniform(.zero, .milliseconds(300)))
        let plain = try ServerSetup(ServerSpec())
        #expect(plain.knobs.defaultProcessingDelay == .none)
    }
}

import SyncSimTesting
import Testing

/// Two catalog scenarios, each with its pinned seeds, as Swift Testing arguments: a failed check shows the check,
/// the seed, the trace tail and the `syncsim run` command that reproduces it.
@Test(arguments: [Catalog.reconnectDuringSend, Catalog.serverRestart].seedCases)
func catalogScenario(_ c: ScenarioCase) {
    c.expectPasses()
}

/// The one-line form: every pinned seed of one scenario.
@Test func offlineSendsKeepTheirOrder() {
    expectScenarioPasses(Catalog.offlineSendsInOrder)
}

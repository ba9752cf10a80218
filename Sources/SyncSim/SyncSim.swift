// The world, scenario DSL, runner and sweeps. Re-exports what a scenario author needs.
@_exported import SimCore
@_exported import SimNet
@_exported import SyncProtocol
@_exported import SyncServer
@_exported import SyncClient
@_exported import SyncChecks

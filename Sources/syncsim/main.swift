import Foundation
import SyncSimCLI

exit(runSyncSim(arguments: Array(CommandLine.arguments.dropFirst())))

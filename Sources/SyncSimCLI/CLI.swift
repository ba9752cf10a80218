/// Entry point of the `syncsim` command: parses `arguments` (without the program name) and runs a command.
///
/// - Returns: the process exit code: 0 success, 1 a failed check, 2 a usage or input error.
public func runSyncSim(arguments: [String]) -> Int32 {
    print("syncsim: no commands yet")
    return 0
}

import CFuzzerDriver
import Foundation

/// Runs libFuzzer with `testOneInput` as the target and exits with its status. Every fuzz target's main.swift
/// calls this: the command line is libFuzzer's (`-max_total_time=60 corpus/`, a reproducer path, `-help=1`).
/// - Parameter testOneInput: the C-callable test function: bytes and count in, 0 back (non-zero is reserved).
public func runFuzzer(_ testOneInput: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Never {
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    let status = LLVMFuzzerRunDriver(&argc, &argv, testOneInput)
    exit(status)
}

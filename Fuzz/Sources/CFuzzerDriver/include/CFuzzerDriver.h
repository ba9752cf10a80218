// libFuzzer's driver entry point (compiler-rt FuzzerInterface.h, "LLVMFuzzerRunDriver", LLVM >= 11).
// SwiftPM names an executable's entry point `<module>_main` and links `main` to it, so libFuzzer's own `main`
// is never used: each fuzz target's main.swift calls this driver with its test function instead.
#ifndef SYNCSIM_CFUZZERDRIVER_H
#define SYNCSIM_CFUZZERDRIVER_H
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*UserCb)(const uint8_t *Data, size_t Size));

#endif

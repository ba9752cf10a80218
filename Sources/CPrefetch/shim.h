// The compiler's cache prefetch hint, which Swift has no spelling for: a static inline function that the Clang
// importer hands to LLVM, so a call from Swift compiles to the one instruction (PREFETCHT0 on x86-64).
#ifndef SYNCSIM_CPREFETCH_SHIM_H
#define SYNCSIM_CPREFETCH_SHIM_H

/// Asks the processor to bring the cache line holding `address` into every cache level, for a read soon. A hint only:
/// it changes no value and never faults, whatever the address.
static inline void syncsim_prefetch_for_read(const void *address) {
    __builtin_prefetch(address, 0, 3);
}

#endif

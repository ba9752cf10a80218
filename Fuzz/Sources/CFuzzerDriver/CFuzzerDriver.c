// Declarations only (include/CFuzzerDriver.h); libFuzzer defines LLVMFuzzerRunDriver. SwiftPM wants a source file.
#include "CFuzzerDriver.h"

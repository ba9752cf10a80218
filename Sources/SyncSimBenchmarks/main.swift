import Foundation

print("syncsim-bench: no benchmarks yet")

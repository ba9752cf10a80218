/// `1 run`, `2 runs`, `0 runs`: a count with its noun, singular for exactly one, for the commands' human output.
/// - Parameters:
///   - count: how many.
///   - noun: the noun in the singular (`run`, `connection`).
///   - plural: the plural when it is not the noun plus `s`.
func counted(_ count: some BinaryInteger, _ noun: String, plural: String? = nil) -> String {
    "\(count) " + (count == 1 ? noun : plural ?? noun + "s")
}

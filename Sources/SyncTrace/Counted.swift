/// `1 byte`, `2 bytes`, `0 bytes`: a count with its noun, singular for exactly one, for the summaries and
/// descriptions people read (`trace-summary`, `decode --summary`, gap and issue lines) and for the commands' human
/// output (`package`: the CLI uses this one).
/// - Parameters:
///   - count: how many.
///   - noun: the noun in the singular (`gap`, `byte`).
///   - plural: the plural when it is not the noun plus `s`.
package func counted(_ count: some BinaryInteger, _ noun: String, plural: String? = nil) -> String {
    "\(count) " + (count == 1 ? noun : plural ?? noun + "s")
}

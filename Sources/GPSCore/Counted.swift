/// `1 ride`, `2 rides`, `0 rides`: a count with its noun in the right number, for sentences
/// people read. `plural` when the noun does not just take an s.
public func counted(_ n: Int, _ singular: String, _ plural: String? = nil) -> String {
    "\(n) " + (n == 1 ? singular : plural ?? singular + "s")
}

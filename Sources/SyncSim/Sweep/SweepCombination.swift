/// One point of a sweep's grid: a link profile and one value per axis.
public struct SweepCombination: Hashable, Sendable {
    /// The combination's place in the sweep's order (profile by profile, then the axes as given, first slowest).
    public var index: Int
    /// The link profile every client runs on.
    public var profile: ProfileName
    /// One value per axis, in axis order.
    public var values: [ParameterValue]

    /// A combination at `index` of its sweep.
    public init(index: Int, profile: ProfileName, values: [ParameterValue]) {
        self.index = index
        self.profile = profile
        self.values = values
    }
}

/// The version of SyncSim that `syncsim --version` prints.
public enum SyncSimVersion {
    /// The package's version, `MAJOR.MINOR.PATCH` (Semantic Versioning 2.0.0); the one place it is defined.
    public static let current = "0.1.0"
}

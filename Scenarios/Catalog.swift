import SyncSim

/// The scenario catalog: a plain list, since Swift on Linux has no runtime discovery.
public enum Catalog {}

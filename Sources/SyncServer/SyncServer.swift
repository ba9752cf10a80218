// SyncServer: see README.md ("Layout") for what this module holds.

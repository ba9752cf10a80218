/// The engine's tasks by id, held in ascending id order: what the view lists is the table itself, and the unfinished
/// ones are found without a walk over every task the engine ever accepted.
///
/// A task is pending until it is done or failed, and never pending again (a failed send may later turn out done);
/// ids are allocated one above the highest, so a new task lands at the end. `firstPending` is the index below which
/// every task is finished: the queue's work (`runTasks`, the view's local echoes and pending count) starts there.
/// A table of dictionaries sorted per read was work that grew with the run: every task change sorted every id, and
/// each read copied every record.
struct TaskTable: Sendable {
    /// The tasks, ascending by id.
    private(set) var records: [TaskRecord] = []
    /// The index of the first pending task, or `records.count`: every task below it is done or failed.
    private(set) var firstPending = 0

    /// An empty table.
    init() {}

    /// A table of `tasks`, in any order (ids unique, as the `tasks` table's primary key makes them).
    init(_ tasks: [TaskRecord]) {
        records = tasks.sorted { $0.id < $1.id }
        advanceFirstPending()
    }

    /// The highest id, if any task exists.
    var highestId: Int64? { records.last?.id }

    /// The unfinished part: every pending task lies in it (with finished ones that came after the first pending).
    var fromFirstPending: ArraySlice<TaskRecord> { records[firstPending...] }

    /// The ids of the pending tasks, ascending.
    var pendingIds: [Int64] {
        var ids: [Int64] = []
        for index in firstPending..<records.count where records[index].state == .pending {
            ids.append(records[index].id)
        }
        return ids
    }

    /// How many tasks are pending.
    var pendingCount: Int {
        var count = 0
        for index in firstPending..<records.count where records[index].state == .pending { count += 1 }
        return count
    }

    /// The task with `id`; setting stores it in id order (nil removes it).
    /// - Complexity: O(log n) to find it; O(1) to add a task above every other.
    subscript(id: Int64) -> TaskRecord? {
        get { index(of: id).map { records[$0] } }
        set {
            if let newValue {
                precondition(newValue.id == id, "task table: record \(newValue.id) stored under id \(id)")
                let position = insertionPoint(of: id)
                if position < records.count && records[position].id == id {
                    records[position] = newValue
                } else {
                    records.insert(newValue, at: position)
                    if position < firstPending && newValue.state != .pending { firstPending += 1 }
                }
                if newValue.state == .pending { firstPending = min(firstPending, position) }
            } else if let position = index(of: id) {
                records.remove(at: position)
                if position < firstPending { firstPending -= 1 }
            }
            advanceFirstPending()
        }
    }

    private mutating func advanceFirstPending() {
        while firstPending < records.count && records[firstPending].state != .pending { firstPending += 1 }
    }

    private func index(of id: Int64) -> Int? {
        let position = insertionPoint(of: id)
        return position < records.count && records[position].id == id ? position : nil
    }

    /// The index of the first task whose id is not below `id`.
    private func insertionPoint(of id: Int64) -> Int {
        // A new task, and the newest tasks the queue works on, are at the end.
        if let last = records.last {
            if last.id < id { return records.count }
            if last.id == id { return records.count - 1 }
        }
        return records.partitionPoint { $0.id < id }
    }
}

#include <sqlite3.h>

/// `sqlite3_config(SQLITE_CONFIG_MEMSTATUS, on)`: the C function is variadic, which Swift cannot call.
static inline int syncsim_sqlite3_config_memstatus(int on) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, on);
}

#ifndef ROSTER_CSQLITE3_SHIM_H
#define ROSTER_CSQLITE3_SHIM_H

#include <sqlite3.h>

// SQLITE_TRANSIENT is a cast of -1 to a function pointer, a macro Swift
// cannot import: sqlite3_bind_text needs it to copy the bound bytes.
static inline sqlite3_destructor_type roster_sqlite_transient(void) { return SQLITE_TRANSIENT; }

#endif

import Foundation
import RosterApp

// All of roster lives in RosterApp, so tests can reach every part of it.
let status = await RosterCommand.runFromCommandLine().code
// The terminal is restored and nothing more is to be done: what is written
// is flushed, and the process ends without running the C libraries' exit
// handlers. Threads that may still be inside libpq or SQLite (a statement
// stopped but not yet returned, the reconnect watcher, the change listener)
// would otherwise race their own library's teardown (seen as a crash, exit
// 139, on q under load). A coverage run keeps exit(), which writes its
// profile.
fflush(nil)
if ProcessInfo.processInfo.environment["LLVM_PROFILE_FILE"] == nil { _exit(status) }
exit(status)

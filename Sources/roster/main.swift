import Foundation
import RosterApp

// All of roster lives in RosterApp, so tests can reach every part of it.
exit(await RosterCommand.runFromCommandLine().code)

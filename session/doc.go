// Package session runs qdsweep's sessions: a sweep (plan, layout of the
// target, holding it under the write guard, the steps, refinement, the
// control step, resume, the fleet rule and the results directory) and a
// run (fio's jobs read from a command line or job files, their targets,
// layout, the size-based end, groups and reports), and reads measured
// data for advise, explain and import.
//
// The command line (cmd/qdsweep) only maps flags to one request per
// command (SweepRequest, RunRequest: the values, and which were given as
// a set of Fields) and hands it over; every decision a session makes is
// here, and it never asks the command line anything back. Errors the user fixes by changing the
// command line are UsageError (exit 2), an interrupted session
// ErrInterrupted. Words come from package report.
package session

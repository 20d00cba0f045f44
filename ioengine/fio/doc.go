// Package fio speaks fio: it parses fio's JSON, json+, terse (v3/v4) and
// normal (human-readable) output, including the noise people paste around it;
// reads and writes fio job files; and runs the installed fio binary as an
// ioengine.Engine, locally or on several hosts through fio's client/server
// mode.
//
// Units follow fio's JSON: latencies in nanoseconds, bandwidth in bytes per
// second, runtimes in milliseconds, CPU in percent.
package fio

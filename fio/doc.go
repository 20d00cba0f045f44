// Package fio speaks fio's formats: it parses fio's JSON, json+, terse (v3/v4)
// and normal (human-readable) output, including the noise people paste around
// it; reads and writes fio job files; derives a job's shape from its options;
// and reads fio client/server host lists. It does no I/O of its own: the
// engine that runs the fio binary is ioengine/fioengine.
//
// Units follow fio's JSON: latencies in nanoseconds, bandwidth in bytes per
// second, runtimes in milliseconds, CPU in percent.
package fio

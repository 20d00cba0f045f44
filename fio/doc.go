// Package fio speaks fio's formats: it parses fio's JSON, json+, terse (v3/v4)
// and normal (human-readable) output, including the noise people paste around
// it, and writes fio's JSON and terse output; parses fio job files and command
// lines as fio does, and holds the table of fio's options with what qdsweep
// does with each; derives a job's shape from its options; and reads fio
// client/server host lists and fio's logs. It imports no engine and does no
// I/O of its own: package fioadapt maps fio's jobs and results onto qdsweep's
// workloads and stats, and fioadapt/fioengine runs the fio binary.
//
// Units follow fio's JSON: latencies in nanoseconds, bandwidth in bytes per
// second, runtimes in milliseconds, CPU in percent.
package fio

// Package fioadapt maps between fio's vocabulary (package fio: job files,
// options, reports, logs) and qdsweep's engines (package ioengine:
// Workload, Stats, Interval), in both directions:
//
//	fio job → Workload          jobrun.go   Runs, JobRun (fio's defaults, refusals, option handlers;
//	                                        prio.go: prio, prioclass and the cmdprio family)
//	Workload → fio job          jobwrite.go JobOptions, WriteJobFile (the fio engine's job files)
//	Stats → fio's report        report.go   ReportFromStats, DiskUtilOf
//	fio's results → Stats       stats.go    LatencyOf, DirStats
//	fio's logs → series         series.go   LogSeries, StatusSeries
//	fio's jobs → Little's Law   explain.go  ExplainFio (each job, and the curve of its runs)
//	fio's results → a sweep     fioimport.go, fioseries.go  ImportResult, AttachSeries
//
// Package fio stays a pure format package; every place qdsweep turns one
// side into the other goes through here.
package fioadapt

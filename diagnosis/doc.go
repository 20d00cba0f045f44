// Package diagnosis says what limits a measured curve and what a step's
// time series shows, from the same points package littleslaw reads.
//
// Diagnose runs the rules over each rw × bs curve (rules.go: cache, CPU,
// a queue that does not reach the device, depth, the device's cap,
// healthy or contended, inconclusive; networkfs.go: network, FUSE and
// memory filesystems) and, across the sizes of one rw, whether the cap is
// a throughput or an IOPS limit. AnalyzeTime reads one step's
// per-interval series (timeseries.go: burst credits, periodic throttling,
// warm-up, cache fill, noisy neighbours), the sustained level the analysis
// uses instead of the step's mean and why the steady-state test held or
// not; CurveTimeOf and TimeFindings turn a curve's steps into findings.
//
// Every verdict is a Finding: a Rule, the Reason that applied and the
// Facts behind it, typed kinds and numbers only (kinds.go lists them all:
// Rules, Reasons, CPUGrades, FactKinds). Like littleslaw it does no I/O,
// never reads the clock and writes no sentences; package report words
// every finding (report/findings.go, report/timefindings.go).
package diagnosis

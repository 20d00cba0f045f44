// Package littleslaw is pure math over measured points (queue depth, IOPS,
// latency): Little's Law, curve fits, knees and recommendations; package
// diagnosis reads the same points for what limits them.
// It does no I/O, no printing and never reads the clock, and it writes no
// sentences: every result carries typed kinds, reasons and the numbers
// behind them, and package report words them.
//
// Where a number is computed, and where its sentence is written:
//
//	Little's Law, QD = IOPS × latency   littles.go          report/format.go (numbers)
//	knees (saturation, efficient, …)    knee.go             report/notes.go (kneeNote), report/sentences.go
//	fits (bound, USL)                   fit.go, model.go    report/sentences.go (curveParas)
//	Little's-Law step checks            check.go            report/notes.go (checkNote)
//	target → QD and split               target.go, split.go report/notes.go (targetNote), report/sentences.go
//	latency SLO                         slo.go, sloeval.go  report/notes.go (sloNote), report/sentences.go
//	offered loads (open loop), depths   load.go             report/load.go
//	application settings                settings.go         report/notes.go (settingFormula)
//	analysis caveats (Notices)          analyze.go          report/notes.go (noticeText)
//	one job explained                   explain.go          report/explain.go
//	advise's depth and split            advice.go           report/advise.go
//	cloud presets and their limits      presets.go          report/notes.go (PresetExcessText), report/advise.go
//	fio's steady-state test (ss=)       fiosteady.go        fio/steady.go (fio's JSON object and normal line)
//
// The cloud presets are data: presets.json, one row per volume type with
// the vendor page its limits come from and the figures that page states.
//
// The JSON text fields of these types (Finding.Summary, Knee.Note,
// Analysis.Warnings, …) are filled by report.Annotate, so results.json keeps
// carrying sentences for its readers.
package littleslaw

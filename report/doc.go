// Package report turns a sweep.Result and its analysis into every output:
// the terminal table and sentences, summary.md, PNG/SVG charts, the JSON
// documents of advise, diagnose and explain, and the comparison of several
// results. It measures nothing and computes nothing beyond formatting: the
// numbers are littleslaw's (see its package doc for where each is
// computed), and every word a user reads is written here, one function per
// sentence.
//
// Where each sentence is written:
//
//	number formats (IOPS, latency, QD, MiB/s, counts)   format.go
//	diagnosis: verdict, facts, next step                  findings.go
//	knee rules and notes, Little's-Law checks, SLO and
//	target answers, analysis caveats, settings, presets  notes.go
//	the analysis paragraphs (terminal, Markdown, panel)   sentences.go
//	an open-loop curve's paragraphs (offered loads)       load.go
//	terminal table                                        table.go
//	summary.md                                            markdown.go
//	advise's text and JSON (qdsweep/advise/v1)            advise.go
//	diagnose's text and JSON (qdsweep/diagnose/v1)        diagnose.go
//	explain's text and JSON (qdsweep/explain/v1)          explain.go
//	a sweep's progress lines                              progress.go
//	run's reports (normal, json, terse, fio-json, json+)  runreport.go, run.go
//	run's and sweep's notes (layout, kept, ignored, …)    filenotes.go, shortfall.go
//	the files-written and import lines                    written.go
//	results.json's text fields (summary, note, …)         annotate.go
//	charts and the dashboard                              chart_*.go, dashboard.go
//
// A wording change touches one of these files and the committed samples
// (go test ./examples -run 'Sample|README' -update rewrites them).
package report

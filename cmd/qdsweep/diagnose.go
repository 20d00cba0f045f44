package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/qdsweep/qdsweep/littleslaw"
	"github.com/qdsweep/qdsweep/report"
	"github.com/urfave/cli/v2"
)

func diagnoseCommand() *cli.Command {
	return flagsAnywhere(&cli.Command{
		Name:      "diagnose",
		Usage:     "explain what limited a saved sweep: queue depth, engine, CPU, cache or the device's cap",
		ArgsUsage: "DIR|results.json",
		Description: "Reads a results directory (or its results.json) and applies the bottleneck rules\n" +
			"(depth-bound, queue-not-reaching-device, device-cap, cpu-bound, cache, healthy) to each curve,\n" +
			"using the device's diskstats and the CPU use recorded per step. Flags may follow the results\n" +
			"directory (qdsweep diagnose DIR --output-format=json).",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "target-iops", Usage: "the load the sweep was for, e.g. 160000 or 160k"},
			&cli.StringFlag{Name: "output-format", Value: formatNormal, Usage: "normal or json"},
		},
		Action: diagnoseAction,
	})
}

// diagnoseOut is the JSON document `diagnose --output-format=json` writes.
type diagnoseOut struct {
	Result     string               `json:"result"`
	TargetIOPS float64              `json:"target_iops,omitempty"`
	Findings   []littleslaw.Finding `json:"findings"`
}

func diagnoseAction(c *cli.Context) error {
	paths := c.Args().Slice()
	if len(paths) != 1 {
		return usagef("diagnose needs one results directory or results.json, e.g. qdsweep diagnose qdsweep-20261130-101500 (got %d arguments)", len(paths))
	}
	format := c.String("output-format")
	if format != formatNormal && format != formatJSON {
		return usagef("--output-format: unknown format %q; use normal or json", format)
	}
	var o littleslaw.Options
	if s := c.String("target-iops"); s != "" {
		var err error
		if o.TargetIOPS, err = parseIOPS(s); err != nil {
			return usagef("--target-iops: %v", err)
		}
	}
	r, err := readForReport(paths[0])
	if err != nil {
		return err
	}
	if err := r.Analyze(o); err != nil {
		if errors.Is(err, littleslaw.ErrBadOptions) {
			return usagef("%v", err)
		}
		fmt.Fprintf(c.App.ErrWriter, "qdsweep: diagnosing without the analysis: %v\n", err)
		r.Analysis = nil
	}
	findings := r.Diagnose(o)
	report.AnnotateFindings(findings)
	if format == formatJSON {
		enc := json.NewEncoder(c.App.Writer)
		enc.SetIndent("", "  ")
		return enc.Encode(diagnoseOut{Result: paths[0], TargetIOPS: o.TargetIOPS, Findings: findings})
	}
	return writeFindings(c.App.Writer, findings, terminalWidth(os.Stdout))
}

// writeFindings prints findings as short paragraphs wrapped to width
// columns: the verdict, its evidence and the next step.
func writeFindings(w io.Writer, findings []littleslaw.Finding, width int) error {
	var b strings.Builder
	for i, f := range findings {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(wrapHanging(f.Summary, width, "["+f.Rule+"] ", "  "))
		for _, e := range f.Evidence {
			b.WriteString(wrapHanging(e, width, "  · ", "    "))
		}
		b.WriteString(wrapHanging(f.Next, width, "  → ", "    "))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/qdsweep/qdsweep/littleslaw"
	"github.com/urfave/cli/v2"
)

func diagnoseCommand() *cli.Command {
	return &cli.Command{
		Name:      "diagnose",
		Usage:     "explain what limited a saved sweep: queue depth, engine, CPU, cache or the device's cap",
		ArgsUsage: "DIR|results.json",
		Description: "Reads a results directory (or its results.json) and applies the bottleneck rules\n" +
			"(depth-bound, queue-not-reaching-device, device-cap, cpu-bound, cache, healthy) to each curve,\n" +
			"using the device's diskstats and the CPU use recorded per step.\n" +
			"   qdsweep diagnose qdsweep-20261130-101500 --target-iops 160k\n" +
			"   qdsweep diagnose results.json --output-format=json",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "target-iops", Usage: "the load the sweep was for, e.g. 160000 or 160k"},
			&cli.StringFlag{Name: "output-format", Value: formatNormal, Usage: "normal or json"},
		},
		Action: diagnoseAction,
	}
}

// diagnoseOut is the JSON document `diagnose --output-format=json` writes.
type diagnoseOut struct {
	Result     string               `json:"result"`
	TargetIOPS float64              `json:"target_iops,omitempty"`
	Findings   []littleslaw.Finding `json:"findings"`
}

func diagnoseAction(c *cli.Context) error {
	vals := map[string]string{"output-format": c.String("output-format")}
	if c.IsSet("target-iops") {
		vals["target-iops"] = c.String("target-iops")
	}
	paths, err := trailingFlags(c, vals)
	if err != nil {
		return err
	}
	if len(paths) != 1 {
		return usagef("diagnose needs one results directory or results.json, e.g. qdsweep diagnose qdsweep-20261130-101500 (got %d arguments)", len(paths))
	}
	format := vals["output-format"]
	if format != formatNormal && format != formatJSON {
		return usagef("--output-format: unknown format %q; use normal or json", format)
	}
	var o littleslaw.Options
	if s := vals["target-iops"]; s != "" {
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
	if format == formatJSON {
		enc := json.NewEncoder(c.App.Writer)
		enc.SetIndent("", "  ")
		return enc.Encode(diagnoseOut{Result: paths[0], TargetIOPS: o.TargetIOPS, Findings: findings})
	}
	return writeFindings(c.App.Writer, findings)
}

// trailingFlags returns the positional arguments of c, reading the
// command's flags (named in vals, which it updates) also when they follow
// them ("qdsweep diagnose DIR --output-format=json").
func trailingFlags(c *cli.Context, vals map[string]string) ([]string, error) {
	var pos []string
	args := c.Args().Slice()
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") || a == "-" {
			pos = append(pos, a)
			continue
		}
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if _, ok := vals[name]; !ok && name != "target-iops" {
			return nil, usagef("unknown flag %s; see qdsweep %s --help", a, c.Command.Name)
		}
		if !hasVal {
			if i+1 >= len(args) {
				return nil, usagef("--%s needs a value", name)
			}
			i++
			val = args[i]
		}
		vals[name] = val
	}
	return pos, nil
}

// writeFindings prints findings as short paragraphs: the verdict, its
// evidence and the next step.
func writeFindings(w io.Writer, findings []littleslaw.Finding) error {
	var b strings.Builder
	for i, f := range findings {
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "[%s] %s\n", f.Rule, f.Summary)
		for _, e := range f.Evidence {
			fmt.Fprintf(&b, "  · %s\n", e)
		}
		fmt.Fprintf(&b, "  → %s\n", f.Next)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

package main

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v2"
	"golang.org/x/term"

	"github.com/qdsweep/qdsweep/littleslaw"
)

// The analysis flags several commands share, defined and parsed here once:
// --target-iops, --latency-slo, --for and the normal|json --output-format
// of the commands that only read results. A bad value is a usage error
// naming the flag and the fix.

// targetIOPSFlag is --target-iops with the command's usage text.
func targetIOPSFlag(usage string) cli.Flag {
	return &cli.StringFlag{Name: "target-iops", Usage: usage}
}

// latencySLOFlag is --latency-slo with the command's usage text.
func latencySLOFlag(usage string) cli.Flag {
	return &cli.StringFlag{Name: "latency-slo", Usage: usage}
}

// forFlag is --for with the command's usage text.
func forFlag(usage string) cli.Flag {
	return &cli.StringFlag{Name: "for", Usage: usage}
}

// jsonFormatFlag is --output-format for commands that write normal text or JSON.
func jsonFormatFlag() cli.Flag {
	return &cli.StringFlag{Name: "output-format", Value: formatNormal, Usage: "normal or json"}
}

// targetIOPS reads --target-iops (0 when not given).
func targetIOPS(c *cli.Context) (float64, error) {
	s := c.String("target-iops")
	if s == "" {
		return 0, nil
	}
	v, err := parseIOPS(s)
	if err != nil {
		return 0, usagef("--target-iops: %v", err)
	}
	return v, nil
}

// latencySLO reads the latency objective of flag name (nil when not given).
func latencySLO(c *cli.Context, name string) (*littleslaw.SLO, error) {
	s := c.String(name)
	if s == "" {
		return nil, nil
	}
	slo, err := littleslaw.ParseSLO(s)
	if err != nil {
		return nil, usagef("--%s: %v", name, err)
	}
	return &slo, nil
}

// settingsFor reads --for ("" when not given).
func settingsFor(c *cli.Context) (string, error) {
	f := c.String("for")
	if f != "" && !littleslaw.IsSettingsKind(f) {
		return "", usagef("--for %q: use %s", f, orList(littleslaw.SettingsKinds))
	}
	return f, nil
}

// jsonOutput reads a normal|json --output-format: true for json.
func jsonOutput(c *cli.Context) (bool, error) {
	switch f := c.String("output-format"); f {
	case formatNormal:
		return false, nil
	case formatJSON:
		return true, nil
	default:
		return false, usagef("--output-format: unknown format %q; use normal or json", f)
	}
}

// orList words choices as "a, b or c".
func orList(w []string) string {
	if len(w) < 2 {
		return strings.Join(w, "")
	}
	return strings.Join(w[:len(w)-1], ", ") + " or " + w[len(w)-1]
}

// writerWidth is the width of the terminal w writes to, 80 when it is not
// a terminal (or narrower than 40 columns).
func writerWidth(w io.Writer) int {
	if f, ok := w.(*os.File); ok {
		if n, _, err := term.GetSize(int(f.Fd())); err == nil && n >= 40 {
			return n
		}
	}
	return 80
}

// parseIOPS reads a positive number of I/Os per second, allowing k and m
// (decimal: 160k = 160000).
func parseIOPS(s string) (float64, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	mult := 1.0
	switch {
	case strings.HasSuffix(t, "k"):
		mult, t = 1e3, strings.TrimSuffix(t, "k")
	case strings.HasSuffix(t, "m"):
		mult, t = 1e6, strings.TrimSuffix(t, "m")
	}
	v, err := strconv.ParseFloat(strings.ReplaceAll(t, ",", ""), 64)
	if err != nil || v <= 0 || v != v || v*mult > 1e12 {
		return 0, fmt.Errorf("%q is not a positive number of IOPS; use e.g. 160000 or 160k", s)
	}
	return v * mult, nil
}

// parseLatency reads a positive latency that carries a unit.
func parseLatency(s string) (float64, error) {
	t := strings.ReplaceAll(strings.TrimSpace(s), "µ", "u")
	if _, err := strconv.ParseFloat(t, 64); err == nil {
		return 0, fmt.Errorf("%q has no unit; use e.g. 2ms or 800us", s)
	}
	d, err := time.ParseDuration(t)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("%q is not a positive latency; use e.g. 2ms or 800us", s)
	}
	return float64(d), nil
}

package report_test

import (
	"fmt"

	"github.com/qdsweep/qdsweep/report"
)

// The formatters print a measured rate, a latency, a bandwidth, a queue
// depth and a target the same way in tables, sentences, charts and the CLI.
func ExampleFormatLatency() {
	for _, ns := range []float64{850, 152_000, 1.3e6, 1_612_000, 999_700, 2.5e9} {
		fmt.Println(report.FormatLatency(ns))
	}
	// Output:
	// 850 ns
	// 152 µs
	// 1.3 ms
	// 1.61 ms
	// 1 ms
	// 2.5 s
}

func ExampleFormatIOPS() {
	fmt.Println(report.FormatIOPS(950), report.FormatIOPS(24_600), report.FormatIOPS(158_900), report.FormatIOPS(1_250_000))
	// Output: 950 24.6k 159k 1.25M
}

func ExampleFormatCount() {
	fmt.Println(report.FormatCount(160_000), report.FormatCount(2.6))
	// Output: 160,000 2.6
}

func ExampleFormatMiBps() {
	fmt.Println(report.FormatMiBps(620.7*(1<<20)), report.FormatMiBps(57.8*(1<<20)))
	// Output: 621 57.8
}

func ExampleFormatQD() {
	fmt.Println(report.FormatQD(64), report.FormatQD(7.62), report.FormatQD(207.6))
	// Output: 64 7.6 208
}

package main

import "github.com/qdsweep/qdsweep/report"

// wrapHanging wraps s as report.WrapHanging does (lines of at most width
// runes, the first starting with first, the others with rest, a number kept
// with its unit) and ends every line, the last included, with a newline.
func wrapHanging(s string, width int, first, rest string) string {
	return report.WrapHanging(s, width, first, rest) + "\n"
}

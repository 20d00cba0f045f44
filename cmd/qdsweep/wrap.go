package main

import "strings"

// units are words that stay on the line of the number before them.
var units = map[string]bool{
	"ns": true, "µs": true, "us": true, "ms": true, "s": true, "IOPS": true, "MiB/s": true,
	"KiB": true, "MiB": true, "GiB": true, "%": true, "×": true,
}

// wrapHanging breaks s into lines of at most width runes (a longer word
// gets a line of its own), the first line starting with first and the
// others with rest; a unit stays on the line of its number ("152 µs").
// Each line ends with a newline.
func wrapHanging(s string, width int, first, rest string) string {
	var words []string
	for _, w := range strings.Fields(s) {
		if n := len(words); n > 0 && units[strings.TrimRight(w, ".,;:)")] {
			words[n-1] += " " + w
			continue
		}
		words = append(words, w)
	}
	var b strings.Builder
	line := first
	empty := true
	for _, w := range words {
		switch {
		case empty:
			line += w
		case len([]rune(line))+1+len([]rune(w)) <= width:
			line += " " + w
		default:
			b.WriteString(line + "\n")
			line = rest + w
		}
		empty = false
	}
	b.WriteString(line + "\n")
	return b.String()
}

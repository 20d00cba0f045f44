package report

import "strings"

// WrapHanging breaks s at spaces into lines of at most width runes (a
// longer word gets a line of its own), the first line starting with first
// and the others with rest, joined by newlines with none at the end. A
// number stays on the line of its unit ("152 µs"), and "≈", "×", "→", "~"
// stay with what follows them, so the text the formatters write never
// breaks inside a quantity.
func WrapHanging(s string, width int, first, rest string) string {
	var out []string
	line, n := first, 0
	for _, word := range glueWords(strings.Fields(s)) {
		switch {
		case n == 0:
			line += word
		case len([]rune(line))+1+len([]rune(word)) <= width:
			line += " " + word
		default:
			out = append(out, line)
			line = rest + word
		}
		n++
	}
	return strings.Join(append(out, line), "\n")
}

// glueWords joins words that must not be split across lines: a number and
// its unit, and a sign with its operand.
func glueWords(ws []string) []string {
	var out []string
	for i := 0; i < len(ws); i++ {
		w, last := ws[i], ws[i]
		for i+1 < len(ws) {
			next := ws[i+1]
			sign := last == "≈" || last == "×" || last == "→" || last == "~" || next == "≈"
			if !sign && !(isUnit(next) && isNumber(last)) {
				break
			}
			w, last = w+" "+next, next
			i++
		}
		out = append(out, w)
	}
	return out
}

// isUnit reports whether w is a unit word, maybe followed by punctuation.
func isUnit(w string) bool {
	switch strings.TrimRight(w, ".,;:)") {
	case "ns", "µs", "ms", "s", "MiB/s", "IOPS", "KiB", "MiB", "GiB", "%":
		return true
	}
	return false
}

// isNumber reports whether w reads as a number ("152", "(1.3", "~208").
func isNumber(w string) bool {
	w = strings.TrimLeft(w, "(~≈")
	return w != "" && w[0] >= '0' && w[0] <= '9'
}

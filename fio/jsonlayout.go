package fio

import (
	"bytes"
	"math"
	"strconv"
)

// fioLayout lays compact JSON out as fio 3.33's json.c prints it: a
// member as `"key" : value` on its own line, two spaces a level, an
// object's or array's close on its own line at its opener's level (an
// empty one "{", a blank line, then "}"), and strings as written, <, >
// and & unescaped (">=64", not Go's "\u003e=64").
func fioLayout(compact []byte) []byte {
	var out bytes.Buffer
	level := 0
	newline := func() {
		out.WriteByte('\n')
		for range level {
			out.WriteString("  ")
		}
	}
	for i := 0; i < len(compact); i++ {
		switch c := compact[i]; c {
		case '"':
			i = copyString(&out, compact, i)
		case '{', '[':
			out.WriteByte(c)
			if i+1 < len(compact) && (compact[i+1] == '}' || compact[i+1] == ']') {
				out.WriteByte('\n') // fio's empty object or array: a blank line
				newline()
				i++
				out.WriteByte(compact[i])
				continue
			}
			level++
			newline()
		case '}', ']':
			level--
			newline()
			out.WriteByte(c)
		case ',':
			out.WriteByte(',')
			newline()
		case ':':
			out.WriteString(" : ")
		case ' ', '\t', '\n', '\r':
		default:
			out.WriteByte(c)
		}
	}
	return out.Bytes()
}

// htmlEscapes are the escapes Go's encoder writes for <, > and &, which
// fio writes as they are.
var htmlEscapes = map[string]byte{`\u003c`: '<', `\u003e`: '>', `\u0026`: '&'}

// copyString copies the JSON string starting at b[i] (its opening quote)
// to out, Go's HTML escapes undone, and returns the index of its closing
// quote.
func copyString(out *bytes.Buffer, b []byte, i int) int {
	out.WriteByte('"')
	for i++; i < len(b); i++ {
		switch b[i] {
		case '"':
			out.WriteByte('"')
			return i
		case '\\':
			if i+6 <= len(b) {
				if c, ok := htmlEscapes[string(b[i:i+6])]; ok {
					out.WriteByte(c)
					i += 5
					continue
				}
			}
			out.WriteByte('\\')
			if i+1 < len(b) {
				i++
				out.WriteByte(b[i])
			}
		default:
			out.WriteByte(b[i])
		}
	}
	return i
}

// fioFloat is a number fio's JSON holds as a double and prints with C's
// %f (six decimals: "iops" : 366.751047, "mean" : 0.000000), where its
// counts and nanoseconds are integers; not finite, 0.
type fioFloat float64

// MarshalJSON writes f as fio's %f.
func (f fioFloat) MarshalJSON() ([]byte, error) {
	v := float64(f)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		v = 0
	}
	return strconv.AppendFloat(nil, v, 'f', 6, 64), nil
}

// floatMap is o as a map of float64, the last of a repeated key winning.
func floatMap(o jsonObject[fioFloat]) map[string]float64 {
	if o == nil {
		return nil
	}
	m := make(map[string]float64, len(o))
	for _, f := range o {
		m[f.Key] = float64(f.Value)
	}
	return m
}

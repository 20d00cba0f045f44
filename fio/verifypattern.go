package fio

import (
	"encoding/hex"
	"fmt"
	"strings"
)

// ParseVerifyPattern reads verify_pattern's value as fio writes the
// forms qdsweep takes: hexadecimal bytes in order (0xdeadbeef is de ad be
// ef; an odd digit count gains a leading 0) and quoted strings ('abc' or
// "abc"), one after another. fio's decimal numbers and %o formats are
// refused, named.
func ParseVerifyPattern(v string) ([]byte, error) {
	var out []byte
	s := strings.TrimSpace(v)
	for s != "" {
		switch {
		case strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X"):
			end := 2
			for end < len(s) && strings.ContainsRune("0123456789abcdefABCDEF", rune(s[end])) {
				end++
			}
			digits := s[2:end]
			if digits == "" {
				return nil, fmt.Errorf("%q: 0x with no hexadecimal digits", v)
			}
			if len(digits)%2 == 1 {
				digits = "0" + digits
			}
			b, _ := hex.DecodeString(digits)
			out, s = append(out, b...), s[end:]
		case s[0] == '"' || s[0] == '\'':
			end := strings.IndexByte(s[1:], s[0])
			if end < 0 {
				return nil, fmt.Errorf("%q: a quoted string is not closed", v)
			}
			out, s = append(out, s[1:1+end]...), s[2+end:]
		default:
			return nil, fmt.Errorf("%q: qdsweep reads hexadecimal (0xdeadbeef) and quoted ('abc') patterns; write the pattern so", v)
		}
		s = strings.TrimLeft(s, " \t,")
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%q: an empty pattern", v)
	}
	return out, nil
}

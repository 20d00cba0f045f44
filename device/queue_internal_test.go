package device

import (
	"strings"
	"testing"
)

func TestParseScheduler(t *testing.T) {
	tests := []struct{ line, want string }{
		{"none [mq-deadline] kyber bfq", "mq-deadline"},
		{"[none] mq-deadline", "none"},
		{"none", "none"},
		{"", ""},
		{"none mq-deadline", ""},
		{"[] none", ""},
	}
	for _, tc := range tests {
		if got := parseScheduler(tc.line); got != tc.want {
			t.Errorf("parseScheduler(%q) = %q, want %q", tc.line, got, tc.want)
		}
	}
}

func FuzzParseScheduler(f *testing.F) {
	for _, s := range []string{"none [mq-deadline] kyber bfq", "none", "[bfq]", "[ ]", "\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		got := parseScheduler(line)
		if got != "" && !strings.Contains(line, got) {
			t.Errorf("parseScheduler(%q) = %q, not part of the line", line, got)
		}
		if strings.ContainsAny(got, " \t\n") {
			t.Errorf("parseScheduler(%q) = %q holds white space", line, got)
		}
	})
}

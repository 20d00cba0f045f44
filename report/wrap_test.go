package report_test

import (
	"testing"

	"github.com/qdsweep/qdsweep/report"
)

func TestWrapHanging(t *testing.T) {
	tests := []struct {
		name, in    string
		width       int
		first, rest string
		want        string
	}{
		{"fits", "one two", 20, "- ", "  ", "- one two"},
		{"breaks at spaces", "aaa bbb ccc", 8, "", "  ", "aaa bbb\n  ccc"},
		{"unit stays with its number", "latency is 500 µs; more", 16, "", "  ", "latency is\n  500 µs; more"},
		{"unit after a word may break", "the fio IOPS", 8, "", "", "the fio\nIOPS"},
		{"sign stays with its operand", "use iodepth 64 × numjobs 4", 20, "", "  ", "use iodepth 64\n  × numjobs 4"},
		{"approximately", "needs QD ≈ 208 now", 12, "", "", "needs\nQD ≈ 208 now"},
		{"long word alone", "x averyveryverylongword y", 10, "", "", "x\naveryveryverylongword\ny"},
		{"empty", "", 10, "> ", "", "> "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := report.WrapHanging(tt.in, tt.width, tt.first, tt.rest); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

package report_test

import (
	"testing"

	"github.com/qdsweep/qdsweep/internal/outtest"

	"github.com/qdsweep/qdsweep/littleslaw"
	"github.com/qdsweep/qdsweep/report"
)

// BenchmarkWriteAll renders every chart and summary.md of a 64-step,
// 4-curve result (16 depths per curve).
func BenchmarkWriteAll(b *testing.B) {
	depths := []int{1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256}
	r := fourCurves(littleslaw.Options{TargetIOPS: 100000}, depths)
	if len(r.Steps) != 64 {
		b.Fatalf("%d steps, want 64", len(r.Steps))
	}
	dir := b.TempDir()
	o := report.Options{TargetIOPS: 100000}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := report.WriteAll(outtest.Open(b, dir), r, o); err != nil {
			b.Fatal(err)
		}
	}
}

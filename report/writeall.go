package report

import "github.com/qdsweep/qdsweep/sweep"

// WriteAll writes every chart and summary.md for r into dir and returns the
// paths written. Each file is written to a temporary name and renamed.
func WriteAll(dir string, r *sweep.Result, o Options) ([]string, error) {
	return nil, nil
}

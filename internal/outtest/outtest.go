// Package outtest opens output directories through the one writer for
// tests (guard.OpenOut), failing the test on a refusal.
package outtest

import (
	"testing"

	"github.com/qdsweep/qdsweep/guard"
)

// Open opens dir for writing through guard.OpenOut, failing t on a refusal.
func Open(t testing.TB, dir string) *guard.Out {
	t.Helper()
	out, err := guard.OpenOut(dir, guard.OutOptions{Renders: dir}) // its own results, written again
	if err != nil {
		t.Fatal(err)
	}
	return out
}

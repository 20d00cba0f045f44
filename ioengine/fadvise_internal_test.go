//go:build linux

package ioengine

import (
	"testing"

	"golang.org/x/sys/unix"
)

// TestFadviseOf holds the advice each fadvise_hint gives each pattern, as
// fio's td_io_open_file gives it: by pattern, FADV_RANDOM for a random job
// and FADV_SEQUENTIAL for the others.
func TestFadviseOf(t *testing.T) {
	for _, c := range []struct {
		f    Fadvise
		rw   RW
		want int
	}{
		{FadviseByPattern, RandRead, unix.FADV_RANDOM}, {FadviseByPattern, RandRW, unix.FADV_RANDOM}, {FadviseByPattern, RandWrite, unix.FADV_RANDOM},
		{FadviseByPattern, Read, unix.FADV_SEQUENTIAL}, {FadviseByPattern, Write, unix.FADV_SEQUENTIAL},
		{FadviseNone, RandRead, 0}, {FadviseRandom, Read, unix.FADV_RANDOM}, {FadviseSequential, RandRead, unix.FADV_SEQUENTIAL},
	} {
		if got := c.f.of(c.rw); got != c.want {
			t.Errorf("Fadvise %d for %v: advice %d, want %d", c.f, c.rw, got, c.want)
		}
	}
}

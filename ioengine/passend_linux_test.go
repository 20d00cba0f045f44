//go:build linux

package ioengine_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/ioengine"
)

// TestPassEndsAtTheRegionsEnd: a random job with sequential follow-ons
// (rw=randread:16) over 1 MiB of a 4 MiB file ends, as fio 3.33's does,
// when a follow-on would start past its region (fio, randread:4, size=1m:
// 118 reads where the region holds 256): its last I/O ends at the region's
// end, and none starts past it. Without Control.PassEnds it runs its 256.
// The count itself depends on where the random draws fall, in fio too.
func TestPassEndsAtTheRegionsEnd(t *testing.T) {
	const file, region, bs = 4 << 20, 1 << 20, 4096
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, make([]byte, file), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, eng := range engines {
		var early int
		for seed := uint64(1); seed <= 4; seed++ {
			for _, ends := range []bool{true, false} {
				w := ioengine.Workload{Filename: path, RW: ioengine.RandRead, BS: bs, Size: region, IODepth: depthFor(eng, 8), NumJobs: 1,
					RandSeed: seed, Shape: ioengine.Shape{RandomEvery: 16}}
				st, err := mustEngine(t, eng).Run(context.Background(), w, ioengine.Control{Runtime: time.Minute, IOsPerJob: region / bs, PassEnds: ends, IOLog: true})
				if err != nil {
					t.Fatalf("%s seed %d: %v", eng, seed, err)
				}
				var n, atEnd int
				for _, rec := range st.IOLog {
					for _, r := range rec {
						n++
						if r.Offset+r.Bytes > region {
							t.Errorf("%s seed %d: an I/O at %d past the region of %d", eng, seed, r.Offset, region)
						}
						if r.Offset+r.Bytes == region {
							atEnd++
						}
					}
				}
				switch {
				case !ends && n != region/bs:
					t.Errorf("%s seed %d without PassEnds: %d I/Os, want %d", eng, seed, n, region/bs)
				case ends && n > region/bs:
					t.Errorf("%s seed %d: %d I/Os, more than the region's %d", eng, seed, n, region/bs)
				case ends && n < region/bs && atEnd == 0:
					t.Errorf("%s seed %d: ended after %d I/Os, none of them at the region's end", eng, seed, n)
				case ends && n < region/bs:
					early++
				}
			}
		}
		if early == 0 {
			t.Errorf("%s: no seed of 4 ended its pass at the region's end (randread:16 over 256 blocks)", eng)
		}
	}
}

//go:build linux && !386 && !arm && !mips && !mipsle

package netvoltest_test

import (
	"bytes"
	"io"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/internal/netvoltest"
)

// TestVolume: the loop device over the volume reads what its file holds,
// each read answered no sooner than the delay after it was asked, and a
// capped volume answers no more reads in a span than its cap and its
// burst allow (lower bounds on time: they hold however loaded the machine).
func TestVolume(t *testing.T) {
	const delay = 3 * time.Millisecond
	const capIOPS, reads = 500, 100
	dev, v := netvoltest.Start(t, netvoltest.Config{Size: 16 << 20, Delay: delay, IOPS: capIOPS, Burst: 20 * time.Millisecond})
	file, err := os.ReadFile(v.File)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(dev)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	blk := make([]byte, 4096)
	t0 := time.Now()
	if _, err := f.ReadAt(blk, 5<<20); err != nil && err != io.EOF {
		t.Fatal(err)
	}
	if d := time.Since(t0); d < delay {
		t.Errorf("a read took %v, under the volume's %v", d, delay)
	}
	if !bytes.Equal(blk, file[5<<20:5<<20+4096]) {
		t.Errorf("the loop device read other bytes than the file holds")
	}
	// Reads through the loop device, in parallel, beyond the burst: the cap
	// holds them to capIOPS after the burst's 10.
	served := v.Served()
	t0 = time.Now()
	var wg sync.WaitGroup
	for i := range reads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b := make([]byte, 4096)
			if _, err := f.ReadAt(b, int64(i)*4096*7); err != nil && err != io.EOF {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	took := time.Since(t0)
	n := v.Served() - served
	if least := time.Duration(float64(n-10-1) / capIOPS * float64(time.Second)); took < least {
		t.Errorf("%d reads in %v, under the %v a %d IOPS cap allows", n, took, least, capIOPS)
	}
	t.Logf("%d reads through the loop device in %v (cap %d IOPS)", n, took, capIOPS)
}

//go:build linux

package looptest

import (
	"crypto/rand"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// RandomFile writes size random bytes to a new file at path.
func RandomFile(t testing.TB, path string, size int) {
	t.Helper()
	b := make([]byte, size)
	rand.Read(b)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// SumOf returns the hex SHA-256 of the whole of an open file, read through
// a descriptor of its own: the file's bytes whatever name it has now.
func SumOf(t testing.TB, f *os.File) string {
	t.Helper()
	return FileSum(t, "/proc/self/fd/"+strconv.Itoa(int(f.Fd())))
}

// SwapNames exchanges the names a and b (renameat2 RENAME_EXCHANGE) every
// interval, from the moment a exists until the returned stop is called;
// stop returns how many swaps were made.
func SwapNames(a, b string, every time.Duration) (stop func() int) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	swaps := 0
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-done:
				return
			default:
			}
			if _, err := os.Stat(a); err == nil {
				break
			}
			time.Sleep(time.Millisecond)
		}
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				if unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE) == nil {
					swaps++
				}
			}
		}
	}()
	return func() int {
		close(done)
		wg.Wait()
		return swaps
	}
}

// LoopOverMountedLoop makes a 32 MiB ext4 image, attaches it to a loop
// device (lower) mounted read-only, and attaches a second loop device
// (upper) over lower: a write to upper writes the mounted filesystem (the
// row that destroyed an ext4: losetup B A while A is mounted). It returns
// the image, lower, upper and where lower is mounted; all are undone in
// t.Cleanup. It needs root, losetup, mkfs.ext4, mount and umount.
func LoopOverMountedLoop(t testing.TB) (img, lower, upper, dir string) {
	t.Helper()
	RequireRootTools(t, "mkfs.ext4", "mount", "umount")
	img = MakeImage(t, 32<<20)
	RunTool(t, "", "mkfs.ext4", "-q", "-F", img)
	lower = AttachLoop(t, img, false)
	dir = Mount(t, lower)
	upper = AttachLoop(t, lower, false)
	return img, lower, upper, dir
}

//go:build linux

// Package fliptest corrupts a file between a write and its read back, at
// the one moment that is never a race: every read of the file waits (a
// fanotify permission event) until, where a block has been written since
// it was last corrupted, one byte of it has been flipped. A job that
// verifies what it wrote must then fail on that block, however loaded the
// machine and however short the time between the write and the read.
//
// It needs fanotify's permission events (root, or CAP_SYS_ADMIN); a test
// skips, naming the reason, where they are missing.
package fliptest

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"sync"
	"sync/atomic"
	"testing"

	"golang.org/x/sys/unix"
)

// Flipper corrupts one block of a file before each read of it.
type Flipper struct {
	fd        int
	at, block int64 // the byte flipped, and its block (start, bytes)
	start     int64
	last      []byte // the block as the last flip left it
	flips     atomic.Int64
	reads     atomic.Int64
	stop      atomic.Bool
	done      sync.WaitGroup
	err       error
}

// Start has every read of path (which must exist) wait, from now until
// Stop, while the byte at off is flipped (all its bits) if the block of
// blockBytes holding it has been written since the last flip: it holds
// other bytes than the flip left there, and not only zeros (a block never
// written). The reads of files opened before Start do not wait.
func Start(t *testing.T, path string, off, blockBytes int64) *Flipper {
	t.Helper()
	fd, err := unix.FanotifyInit(unix.FAN_CLASS_CONTENT|unix.FAN_CLOEXEC|unix.FAN_NONBLOCK, unix.O_RDWR|unix.O_LARGEFILE)
	if err != nil {
		t.Skipf("fanotify's permission events are unavailable here (%v): they stop each read to corrupt the file first", err)
	}
	if err := unix.FanotifyMark(fd, unix.FAN_MARK_ADD, unix.FAN_ACCESS_PERM, unix.AT_FDCWD, path); err != nil {
		unix.Close(fd)
		t.Skipf("fanotify cannot watch the reads of %s (%v)", path, err)
	}
	f := &Flipper{fd: fd, at: off, block: blockBytes, start: off / blockBytes * blockBytes}
	f.done.Add(1)
	go f.serve()
	t.Cleanup(func() { _ = f.Stop() })
	return f
}

// Flips is how many times the byte was flipped; Reads, how many reads
// waited for it.
func (f *Flipper) Flips() int64 { return f.flips.Load() }

// Reads is how many reads of the file waited for the flipper.
func (f *Flipper) Reads() int64 { return f.reads.Load() }

// Stop lets every read run untouched from now on, and returns the first
// error the flipper met (nil: each flip was written and synced).
func (f *Flipper) Stop() error {
	if !f.stop.Swap(true) {
		f.done.Wait()
		unix.Close(f.fd)
	}
	return f.err
}

// serve answers the permission events until Stop.
func (f *Flipper) serve() {
	defer f.done.Done()
	buf := make([]byte, 4096)
	for !f.stop.Load() {
		if n, err := unix.Poll([]unix.PollFd{{Fd: int32(f.fd), Events: unix.POLLIN}}, 20); n == 0 || errors.Is(err, unix.EINTR) {
			continue
		}
		n, err := unix.Read(f.fd, buf)
		if errors.Is(err, unix.EAGAIN) || errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			f.fail(err)
			return
		}
		f.events(buf[:n])
	}
}

// events handles a read's worth of fanotify_event_metadata: each event's
// flip, then its answer (FAN_ALLOW) and its file closed.
func (f *Flipper) events(b []byte) {
	const metaLen = 24 // event_len 4, vers 1, reserved 1, metadata_len 2, mask 8, fd 4, pid 4
	for len(b) >= metaLen {
		n := binary.NativeEndian.Uint32(b[0:])
		fd := int32(binary.NativeEndian.Uint32(b[16:]))
		if n < metaLen || int(n) > len(b) {
			return
		}
		b = b[n:]
		if fd < 0 {
			continue
		}
		f.reads.Add(1)
		f.flip(int(fd))
		resp := make([]byte, 8)
		binary.NativeEndian.PutUint32(resp[0:], uint32(fd))
		binary.NativeEndian.PutUint32(resp[4:], unix.FAN_ALLOW)
		if _, err := unix.Write(f.fd, resp); err != nil {
			f.fail(err)
		}
		unix.Close(int(fd))
	}
}

// flip flips the byte through fd (the event's file, whose reads and
// writes raise no events) where its block was written since the last.
func (f *Flipper) flip(fd int) {
	blk := make([]byte, f.block)
	if n, err := unix.Pread(fd, blk, f.start); err != nil || int64(n) < f.block {
		return // the file is shorter: the block is not there yet
	}
	if bytes.Equal(blk, f.last) || len(bytes.Trim(blk, "\x00")) == 0 {
		return
	}
	i := f.at - f.start
	blk[i] ^= 0xff
	if _, err := unix.Pwrite(fd, blk[i:i+1], f.at); err != nil {
		f.fail(err)
		return
	}
	if err := unix.Fdatasync(fd); err != nil {
		f.fail(err)
		return
	}
	f.last = blk
	f.flips.Add(1)
}

func (f *Flipper) fail(err error) {
	if f.err == nil {
		f.err = &os.PathError{Op: "flip", Path: "fanotify", Err: err}
	}
}

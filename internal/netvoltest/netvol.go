//go:build linux && !386 && !arm && !mips && !mipsle

// Package netvoltest (64-bit Linux: go-fuse does not build on 32-bit) is an emulated network volume for tests and the
// benchmark: a FUSE file system (served in this process) holding one
// read-only file, "vol", whose every read is answered after a fixed delay,
// as a network disk answers after a round trip, optionally held to a rate
// of its own (a provisioned volume's IOPS limit, with the burst a token
// bucket allows after idle time), and a read-only loop device with direct
// I/O over that file: a block device a sweep reads.
//
// Every read waits on a goroutine of its own, so reads in flight overlap
// like a network volume's: IOPS ≈ in flight / delay up to the cap, until
// the CPU spent per read (the kernel's FUSE round trip and this server,
// some tens of µs) runs out; Config.IOPS should sit well below what the
// machine serves uncapped (Volume.Served counts what it answered).
package netvoltest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/hanwen/go-fuse/v2/fs"
	"github.com/hanwen/go-fuse/v2/fuse"
)

// Config is an emulated network volume.
type Config struct {
	Size  int64         // bytes of the volume's file (a multiple of 4096)
	Delay time.Duration // every read is answered this long after it is dispatched
	// IOPS, when > 0, caps the reads dispatched per second (a token
	// bucket); a read beyond it waits for its turn before its Delay.
	IOPS float64
	// Burst is the bucket's depth as time at IOPS: after idle time, up to
	// IOPS × Burst reads are dispatched at once (0: one).
	Burst time.Duration
}

// Validate refuses a volume that cannot be served.
func (c Config) Validate() error {
	switch {
	case c.Size <= 0 || c.Size%4096 != 0:
		return fmt.Errorf("netvol: size %d is not a positive multiple of 4096", c.Size)
	case c.Delay < 0 || c.IOPS < 0 || c.Burst < 0:
		return errors.New("netvol: delay, IOPS and burst must not be negative")
	}
	return nil
}

// Volume is a mounted emulated network volume.
type Volume struct {
	Dir    string // where it is mounted
	File   string // its one file, Dir/vol
	server *fuse.Server
	node   *volFile
}

// pattern is the data every read returns: 1 MiB of fixed pseudo-random
// bytes, repeated over the file.
var pattern = func() []byte {
	b := make([]byte, 1<<20)
	x := uint64(88172645463325252)
	for i := range b {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		b[i] = byte(x)
	}
	return b
}()

// volFile is the volume's one file.
type volFile struct {
	fs.Inode
	cfg    Config
	mu     sync.Mutex
	next   time.Time // the token bucket: when the next read may be dispatched
	served atomic.Int64
	// answers keeps each read's answer time once Record is called (nil:
	// none kept).
	amu     sync.Mutex
	answers []time.Time
}

var (
	_ fs.NodeOpener    = (*volFile)(nil)
	_ fs.NodeReader    = (*volFile)(nil)
	_ fs.NodeGetattrer = (*volFile)(nil)
)

func (f *volFile) Getattr(ctx context.Context, fh fs.FileHandle, out *fuse.AttrOut) syscall.Errno {
	out.Mode = syscall.S_IFREG | 0o400
	out.Size = uint64(f.cfg.Size)
	out.Nlink = 1
	return 0
}

func (f *volFile) Open(ctx context.Context, flags uint32) (fs.FileHandle, uint32, syscall.Errno) {
	if flags&syscall.O_ACCMODE != syscall.O_RDONLY {
		return nil, 0, syscall.EROFS
	}
	return nil, fuse.FOPEN_DIRECT_IO, 0 // every read reaches the server: no page cache
}

// dispatch is when a read that arrived at now leaves the token bucket.
func (f *volFile) dispatch(now time.Time) time.Time {
	if f.cfg.IOPS <= 0 {
		return now
	}
	per := time.Duration(float64(time.Second) / f.cfg.IOPS)
	f.mu.Lock()
	defer f.mu.Unlock()
	if floor := now.Add(-f.cfg.Burst); f.next.Before(floor) {
		f.next = floor // the bucket holds at most Burst of credit
	}
	at := f.next
	f.next = f.next.Add(per)
	if at.Before(now) {
		return now
	}
	return at
}

func (f *volFile) Read(ctx context.Context, fh fs.FileHandle, dest []byte, off int64) (fuse.ReadResult, syscall.Errno) {
	due := f.dispatch(time.Now()).Add(f.cfg.Delay)
	if d := time.Until(due); d > 0 {
		time.Sleep(d)
	}
	if off >= f.cfg.Size {
		return fuse.ReadResultData(nil), 0
	}
	n := min(int64(len(dest)), f.cfg.Size-off)
	for done := int64(0); done < n; {
		at := (off + done) % int64(len(pattern))
		done += int64(copy(dest[done:n], pattern[at:]))
	}
	f.served.Add(1)
	f.amu.Lock()
	if f.answers != nil {
		f.answers = append(f.answers, time.Now())
	}
	f.amu.Unlock()
	return fuse.ReadResultData(dest[:n]), 0
}

// Mount serves c at dir (an empty directory) until Close. It mounts with
// mount(2) itself (root), needing no fusermount.
func Mount(dir string, c Config) (*Volume, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	root := &fs.Inode{}
	node := &volFile{cfg: c}
	long := time.Hour
	opts := &fs.Options{
		EntryTimeout: &long,
		AttrTimeout:  &long,
		MountOptions: fuse.MountOptions{
			FsName:            "netvol",
			Name:              "netvol",
			DirectMountStrict: true,
			// Asynchronous direct reads in flight at once (the kernel's
			// default is 12), as a loop device with direct I/O sends them.
			MaxBackground:     1024,
			ExtraCapabilities: fuse.CAP_ASYNC_DIO,
		},
		OnAdd: func(ctx context.Context) {
			ch := root.NewPersistentInode(ctx, node, fs.StableAttr{Mode: syscall.S_IFREG, Ino: 2})
			root.AddChild("vol", ch, true)
		},
	}
	srv, err := fs.Mount(dir, root, opts)
	if err != nil {
		return nil, fmt.Errorf("netvol: mount at %s: %w", dir, err)
	}
	return &Volume{Dir: dir, File: filepath.Join(dir, "vol"), server: srv, node: node}, nil
}

// Served is the number of reads the volume has answered.
func (v *Volume) Served() int64 { return v.node.served.Load() }

// Record starts keeping the time each read is answered (24 bytes a
// read), for AnsweredIn.
func (v *Volume) Record() {
	v.node.amu.Lock()
	defer v.node.amu.Unlock()
	if v.node.answers == nil {
		v.node.answers = make([]time.Time, 0, 4096)
	}
}

// AnsweredIn is the number of reads answered from from (included) to to
// (excluded) since Record was called: the volume's own count of what it
// completed in a span, for a test to hold an engine's count against.
func (v *Volume) AnsweredIn(from, to time.Time) int {
	v.node.amu.Lock()
	defer v.node.amu.Unlock()
	n := 0
	for _, t := range v.node.answers {
		if !t.Before(from) && t.Before(to) {
			n++
		}
	}
	return n
}

// Close unmounts the volume (retrying while it is briefly busy) and waits
// for its server to end.
func (v *Volume) Close() error {
	var err error
	for range 50 {
		if err = v.server.Unmount(); err == nil {
			v.server.Wait()
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return fmt.Errorf("netvol: unmount %s: %w", v.Dir, err)
}

// Available says why no volume can be mounted here ("" when one can):
// not root, or no /dev/fuse.
func Available() string {
	if os.Geteuid() != 0 {
		return "needs root to mount a FUSE file system with mount(2)"
	}
	if _, err := os.Stat("/dev/fuse"); err != nil {
		return fmt.Sprintf("no FUSE here: %v", err)
	}
	return ""
}

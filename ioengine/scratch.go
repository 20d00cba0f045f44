//go:build linux

package ioengine

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"

	"github.com/qdsweep/qdsweep/guard"
	"github.com/qdsweep/qdsweep/units"
	"golang.org/x/sys/unix"
)

// scratchChunk is the size of each layout write, bytes.
const scratchChunk = 1 << 20

// scratchWriters is how many layout writes are in flight at once.
const scratchWriters = 4

// Scratch is a file qdsweep lays out and owns: it removes it only while the
// path still names the very file it created (same device and inode), so one
// process never deletes a file another process created at the same path.
// It keeps a descriptor of its file open until it is removed or released,
// so the inode number cannot be recycled for someone else's file meanwhile.
//
// The file is created in, and later found and removed through, a
// descriptor of its directory opened and judged by the write guard when
// Create starts (guard.OpenDirFor): never through the path's directories
// resolved again.
type Scratch struct {
	path     string
	mu       sync.Mutex
	created  bool
	keep     int // open descriptor of the created file (-1: none)
	dir      int // descriptor of the directory it is created in (-1: none)
	dev, ino uint64
}

// NewScratch returns the owner of a file to be created at path.
func NewScratch(path string) *Scratch { return &Scratch{path: path, keep: -1, dir: -1} }

// names reports whether the scratch's name in its directory is still the
// file Create made (not followed: a symlink there is not it). Under s.mu.
func (s *Scratch) names() bool {
	if s.ino == 0 || s.dir < 0 {
		return false
	}
	var st unix.Stat_t
	err := unix.Fstatat(s.dir, filepath.Base(s.path), &st, unix.AT_SYMLINK_NOFOLLOW)
	return err == nil && uint64(st.Dev) == s.dev && st.Ino == s.ino
}

// unlink removes the scratch's name from its directory. Under s.mu.
func (s *Scratch) unlink() bool { return unix.Unlinkat(s.dir, filepath.Base(s.path), 0) == nil }

// Close closes the scratch's directory descriptor: after it, nothing of
// the file is found or removed. Safe to call more than once.
func (s *Scratch) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.dir >= 0 {
		unix.Close(s.dir)
		s.dir = -1
	}
}

// Remove removes the file if this Scratch created it and path still names
// it; it reports whether it removed anything. Safe to call at any time, from
// any goroutine (a forced exit may call it while Create is still writing),
// and more than once.
func (s *Scratch) Remove() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.created {
		return false
	}
	defer s.release()
	if !s.names() {
		return false // gone, or someone else's file now: not ours to remove
	}
	return s.unlink()
}

// Names reports whether path still names the file Create made (same
// device and inode, the path not followed).
func (s *Scratch) Names() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.names()
}

// Discard removes the file Create made, kept or not, while path still
// names it (Names): a named target laid out for a run refused before any
// I/O goes as a scratch file goes. It reports whether it removed it.
func (s *Scratch) Discard() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.names() {
		return false
	}
	s.release()
	return s.unlink()
}

// Release gives up ownership without removing the file (a laid-out target
// that is kept). Safe to call more than once.
func (s *Scratch) Release() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.release()
}

func (s *Scratch) release() {
	s.created = false
	if s.keep >= 0 {
		unix.Close(s.keep)
		s.keep = -1
	}
}

// own records that fd is the file this Scratch created.
func (s *Scratch) own(fd int) error {
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return err
	}
	keep, err := unix.FcntlInt(uintptr(fd), unix.F_DUPFD_CLOEXEC, 0)
	if err != nil {
		return err
	}
	s.mu.Lock()
	s.created, s.keep, s.dev, s.ino = true, keep, uint64(st.Dev), st.Ino
	s.mu.Unlock()
	return nil
}

// CreateScratch creates path and lays it out (Scratch.Create); a failed or
// interrupted layout removes the partial file.
func CreateScratch(ctx context.Context, path string, size int64) error {
	s := NewScratch(path)
	defer s.Close()
	return s.Create(ctx, size)
}

// fillIncompressible fills b with non-zero, incompressible data.
func fillIncompressible(b []byte) {
	seed := newRNG(0x5eed, 0)
	for i := 0; i < len(b); i += 8 {
		v := seed.next()
		for k := 0; k < 8 && i+k < len(b); k++ {
			b[i+k] = byte(v >> (8 * k))
		}
	}
}

// layout is one Create under way: the file, how it is written, the next
// offset to claim and the bytes written so far.
type layout struct {
	fd      int
	direct  bool
	size    int64
	next    atomic.Int64
	written *atomic.Int64
}

// writeChunks writes chunks of buf at the offsets it claims until the
// file is laid out, ctx is done or a write fails.
func (s *Scratch) writeChunks(ctx context.Context, l *layout, buf []byte) error {
	for {
		if e := ctx.Err(); e != nil {
			return e
		}
		off := l.next.Add(scratchChunk) - scratchChunk
		if off >= l.size {
			return nil
		}
		n := min(int64(scratchChunk), l.size-off)
		b := buf[:n]
		if l.direct && n%4096 != 0 {
			// The tail is not block aligned: finish it buffered, through
			// a second open of this very file (never the path, which may
			// name another file by now).
			tfd, e := s.reopenBuffered(l.fd)
			if e == nil {
				e = pwriteFull(tfd, b, off)
				unix.Close(tfd)
			}
			if e != nil {
				return e
			}
		} else if e := pwriteFull(l.fd, b, off); e != nil {
			return e
		}
		l.written.Add(n)
	}
}

// create creates the scratch's file in its directory, opened and judged
// by the guard (guard.OpenDirFor), exclusively and without following a
// symlink, with O_DIRECT where the filesystem has it (direct), and records
// it as this Scratch's own.
func (s *Scratch) create() (fd int, direct bool, err error) {
	path := s.path
	dir, err := guard.OpenDirFor(path)
	if err != nil {
		return -1, false, fmt.Errorf("creating %s: %w", path, err)
	}
	s.mu.Lock()
	if s.dir >= 0 {
		unix.Close(s.dir)
	}
	s.dir = dir
	s.mu.Unlock()
	base := filepath.Base(path)
	flags := unix.O_WRONLY | unix.O_CREAT | unix.O_EXCL | unix.O_NOFOLLOW | unix.O_CLOEXEC
	fd, err = unix.Openat(dir, base, flags|unix.O_DIRECT, 0o644)
	direct = true
	if errors.Is(err, unix.EINVAL) { // no O_DIRECT on this filesystem
		direct = false
		fd, err = unix.Openat(dir, base, flags, 0o644)
	}
	if err != nil {
		return -1, false, fmt.Errorf("creating %s: %w", path, err)
	}
	if err := s.own(fd); err != nil {
		unix.Close(fd)
		_ = unix.Unlinkat(dir, base, 0) // just created with O_EXCL: ours
		return -1, false, fmt.Errorf("creating %s: %w", path, err)
	}
	return fd, direct, nil
}

// Create creates the file (it must not exist; symlinks are not followed)
// with mode 0644 and lays out size bytes with real sequential writes of
// 1 MiB (O_DIRECT where the filesystem allows), then fsyncs it. Reading a
// file whose blocks were never written measures nothing (the filesystem
// answers unwritten extents without device I/O), so read targets are laid
// out this way. On any error, ctx cancellation included, the partial file
// is removed (only if it is still the one created here) and the error says
// how far the layout got.
func (s *Scratch) Create(ctx context.Context, size int64) (err error) {
	path := s.path
	if size <= 0 {
		return fmt.Errorf("laying out %s: size %d bytes; use a positive size", path, size)
	}
	fd, direct, err := s.create()
	if err != nil {
		return err
	}
	var written atomic.Int64
	defer func() {
		if err != nil {
			if fd >= 0 {
				unix.Close(fd)
			}
			s.Remove()
			err = fmt.Errorf("laying out %s: %w (wrote %s of %s); removed the partial file",
				path, err, units.FormatBytes(written.Load()), units.FormatBytes(size))
		}
	}()
	// Reserve the space first so writes do not extend the file one by one
	// (extending O_DIRECT writes are synchronous) and ENOSPC shows early.
	if ferr := unix.Fallocate(fd, 0, 0, size); ferr != nil && !errors.Is(ferr, unix.EOPNOTSUPP) {
		return ferr
	}
	ar, err := newArena(scratchWriters, scratchChunk, 0)
	if err != nil {
		return err
	}
	defer ar.close()
	fillIncompressible(ar.bufs)
	lay := layout{fd: fd, direct: direct, size: size, written: &written}
	var wg sync.WaitGroup
	errs := make([]error, scratchWriters)
	for wi := 0; wi < scratchWriters; wi++ {
		wg.Add(1)
		go func(wi int) {
			defer wg.Done()
			errs[wi] = s.writeChunks(ctx, &lay, ar.buf(wi))
		}(wi)
	}
	wg.Wait()
	for _, e := range errs {
		if e != nil && !errors.Is(e, context.Canceled) && !errors.Is(e, context.DeadlineExceeded) {
			return e
		}
	}
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	if err = unix.Fsync(fd); err != nil {
		return fmt.Errorf("fsync: %w", err)
	}
	if err = unix.Close(fd); err != nil {
		fd = -1
		return err
	}
	return nil
}

// pwriteFull writes all of b at off, retrying EINTR and short writes.
func pwriteFull(fd int, b []byte, off int64) error {
	for len(b) > 0 {
		n, err := unix.Pwrite(fd, b, off)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return err
		}
		if n == 0 {
			return unix.EIO
		}
		b, off = b[n:], off+int64(n)
	}
	return nil
}

// ID is the identity (device, inode) of the file Create made; zero before.
func (s *Scratch) ID() guard.FileID {
	s.mu.Lock()
	defer s.mu.Unlock()
	return guard.FileID{Dev: s.dev, Ino: s.ino}
}

// reopenBuffered opens the file fd refers to again, without O_DIRECT, by
// descriptor (/proc/self/fd), and proves it is the file this Scratch
// created before anything is written through it.
func (s *Scratch) reopenBuffered(fd int) (int, error) {
	tfd, err := unix.Open(fmt.Sprintf("/proc/self/fd/%d", fd), unix.O_WRONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1, err
	}
	var st unix.Stat_t
	if err := unix.Fstat(tfd, &st); err != nil {
		unix.Close(tfd)
		return -1, err
	}
	if id := s.ID(); uint64(st.Dev) != uint64(id.Dev) || st.Ino != id.Ino {
		unix.Close(tfd)
		return -1, fmt.Errorf("the file being laid out changed identity")
	}
	return tfd, nil
}

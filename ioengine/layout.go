package ioengine

import (
	"context"
	"sync"

	"github.com/qdsweep/qdsweep/guard"
)

// Layout is the files a run lays out (LayOut), each owned by its Scratch
// until the run is done with it.
type Layout struct {
	scratches  []*Scratch
	unregister []func()
	temporary  bool
	mu         sync.Mutex
	closed     bool
}

// LayOut creates each of paths (none may exist; symlinks are not followed)
// with size bytes, one after another (Scratch.Create). onExit, when not nil,
// registers a removal to run should the process exit hard, and returns its
// undoing. A temporary layout (a scratch file) is removed by Close; a kept
// one (a named target, as fio keeps it) is the caller's once laid out
// whole, and a file cut short always goes. Files are removed only by inode:
// never another process's file at the same path. The Layout comes back with
// an error too; Close it either way.
func LayOut(ctx context.Context, paths []string, size int64, temporary bool, onExit func(remove func()) (undo func())) (*Layout, error) {
	l := &Layout{temporary: temporary}
	for _, p := range paths {
		sc := NewScratch(p)
		undo := func() {}
		if onExit != nil {
			undo = onExit(func() { sc.Remove() })
		}
		l.scratches, l.unregister = append(l.scratches, sc), append(l.unregister, undo)
	}
	for i, sc := range l.scratches {
		if err := sc.Create(ctx, size); err != nil {
			return l, err
		}
		if !temporary {
			l.unregister[i]() // laid out whole: kept, as fio keeps it
			l.unregister[i] = func() {}
			sc.Release()
		}
	}
	return l, nil
}

// IDs are the identities (device, inode) of the files laid out: the run
// may write them, kept or not.
func (l *Layout) IDs() []guard.FileID {
	var ids []guard.FileID
	for _, sc := range l.scratches {
		if id := sc.ID(); id != (guard.FileID{}) {
			ids = append(ids, id)
		}
	}
	return ids
}

// Kept are the paths that still name the files laid out (Scratch.Names):
// not one another process put at a path after qdsweep's file there went.
func (l *Layout) Kept() []string {
	var kept []string
	for _, sc := range l.scratches {
		if sc.Names() {
			kept = append(kept, sc.path)
		}
	}
	return kept
}

// Discard removes every file laid out, kept ones too, last first, where
// its path still names it (Scratch.Discard): the run was refused before
// any I/O, and what it laid out for that run goes.
func (l *Layout) Discard() {
	for i := len(l.scratches) - 1; i >= 0; i-- {
		l.scratches[i].Discard()
	}
}

// Close removes the temporary files, last first, and forgets the hard-exit
// removals. Safe to call more than once.
func (l *Layout) Close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return
	}
	l.closed = true
	for i := len(l.scratches) - 1; i >= 0; i-- {
		if l.temporary {
			l.scratches[i].Remove()
		}
		l.unregister[i]()
		l.scratches[i].Close()
	}
}

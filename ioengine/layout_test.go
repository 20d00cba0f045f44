//go:build linux

package ioengine_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/qdsweep/qdsweep/ioengine"
)

// TestLayOut: a temporary layout goes on Close, a kept one stays; an
// existing file is refused and left alone; a file put at a laid-out path by
// someone else is not removed.
func TestLayOut(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	hard := 0
	onExit := func(func()) func() { hard++; return func() { hard-- } }
	l, err := ioengine.LayOut(context.Background(), []string{a, b}, 1<<20, true, onExit)
	if err != nil {
		t.Fatal(err)
	}
	if ids := l.IDs(); len(ids) != 2 || hard != 2 {
		t.Fatalf("%d identities, %d hard-exit removals registered; want 2 and 2", len(ids), hard)
	}
	for _, p := range []string{a, b} {
		if fi, err := os.Stat(p); err != nil || fi.Size() != 1<<20 {
			t.Fatalf("%s: %v", p, err)
		}
	}
	// b replaced by another file: not ours to remove.
	if err := os.Remove(b); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(b, []byte("someone else's"), 0o644); err != nil {
		t.Fatal(err)
	}
	l.Close()
	l.Close()
	if _, err := os.Stat(a); !os.IsNotExist(err) || hard != 0 {
		t.Fatalf("after Close: %s %v, %d removals registered", a, err, hard)
	}
	if got, err := os.ReadFile(b); err != nil || string(got) != "someone else's" {
		t.Fatalf("another's file at the path: %q %v", got, err)
	}

	// Kept: stays after Close, and an existing path is refused untouched.
	k, err := ioengine.LayOut(context.Background(), []string{a}, 4096, false, onExit)
	if err != nil {
		t.Fatal(err)
	}
	k.Close()
	if _, err := os.Stat(a); err != nil || hard != 0 {
		t.Fatalf("kept layout: %v, %d removals registered", err, hard)
	}
	x, err := ioengine.LayOut(context.Background(), []string{b}, 4096, true, nil)
	x.Close()
	if got, _ := os.ReadFile(b); err == nil || string(got) != "someone else's" {
		t.Fatalf("existing path: %v, content %q", err, got)
	}
}

// TestLayOutKeepsToItsDirectory: a file laid out through a directory
// symlink is created in the directory the symlink led to when the layout
// began, and is found (Kept), kept and removed (Discard) there after the
// symlink is flipped to another directory holding a file of the same
// name: that file is never taken for the laid-out one nor removed.
func TestLayOutKeepsToItsDirectory(t *testing.T) {
	base := t.TempDir()
	a, b, link := filepath.Join(base, "a"), filepath.Join(base, "b"), filepath.Join(base, "d")
	for _, d := range []string{a, b} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("a", link); err != nil {
		t.Fatal(err)
	}
	l, err := ioengine.LayOut(context.Background(), []string{filepath.Join(link, "f")}, 4096, false, nil)
	if err != nil {
		l.Close()
		t.Fatal(err)
	}
	defer l.Close()
	other := []byte("someone else's file in b")
	if err := os.WriteFile(filepath.Join(b, "f"), other, 0o644); err != nil {
		t.Fatal(err)
	}
	flip := filepath.Join(base, "flip")
	if err := os.Symlink("b", flip); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(flip, link); err != nil {
		t.Fatal(err)
	}
	if kept := l.Kept(); len(kept) != 1 {
		t.Errorf("Kept after the flip: %v, want the file laid out in a", kept)
	}
	l.Discard()
	if _, err := os.Stat(filepath.Join(a, "f")); !os.IsNotExist(err) {
		t.Errorf("a/f after Discard: %v, want removed", err)
	}
	if got, err := os.ReadFile(filepath.Join(b, "f")); err != nil || string(got) != string(other) {
		t.Errorf("b/f after Discard: %q, %v; want it untouched", got, err)
	}
}

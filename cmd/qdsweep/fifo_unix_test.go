//go:build !windows

package main_test

import (
	"testing"

	"golang.org/x/sys/unix"
)

// mkfifo makes a named pipe at path.
func mkfifo(t *testing.T, path string) {
	t.Helper()
	if err := unix.Mkfifo(path, 0o644); err != nil {
		t.Fatal(err)
	}
}

package main_test

import "testing"

// mkfifo: Windows has no named pipes in the filesystem; the cases that
// need one do not run there.
func mkfifo(t *testing.T, path string) {
	t.Helper()
	t.Skip("no named pipes in the filesystem on Windows")
}

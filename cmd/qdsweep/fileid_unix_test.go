//go:build !windows

package main

import (
	"os"
	"syscall"
	"testing"
)

// fileID is the inode and device of the file fi describes.
func fileID(t *testing.T, fi os.FileInfo) (ino, dev uint64) {
	t.Helper()
	st := fi.Sys().(*syscall.Stat_t)
	return uint64(st.Ino), uint64(st.Dev)
}

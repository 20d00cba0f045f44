package main_test

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// removeStaleBinDirs removes the binary's directories that earlier test
// runs of this user left behind when they were killed (an interrupt or
// the test timeout skips TestMain's cleanup): those named for a process
// that is gone.
func removeStaleBinDirs() {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), "qdsweep-cli-*-*"))
	for _, d := range dirs {
		f := strings.SplitN(strings.TrimPrefix(filepath.Base(d), "qdsweep-cli-"), "-", 2)
		pid, err := strconv.Atoi(f[0])
		if err != nil || pid <= 0 || pid == os.Getpid() {
			continue
		}
		if _, err := os.Stat(fmt.Sprintf("/proc/%d", pid)); !errors.Is(err, fs.ErrNotExist) {
			continue
		}
		fi, err := os.Lstat(d)
		if st, ok := fi.Sys().(*syscall.Stat_t); err == nil && ok && fi.IsDir() && int(st.Uid) == os.Getuid() {
			_ = os.RemoveAll(d)
		}
	}
}

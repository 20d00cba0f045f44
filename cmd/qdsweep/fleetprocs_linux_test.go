package main_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// killMarked kills every process whose environment holds kv (a fio server
// started by fioServer, and the processes it forked for its clients' jobs,
// each in a session of its own), until none is left.
func killMarked(kv string) {
	for range 5 {
		found := false
		ents, _ := os.ReadDir("/proc")
		for _, e := range ents {
			pid, err := strconv.Atoi(e.Name())
			if err != nil {
				continue
			}
			env, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
			if err != nil {
				continue
			}
			for _, v := range bytes.Split(env, []byte{0}) {
				if string(v) == kv {
					_ = syscall.Kill(pid, syscall.SIGKILL)
					found = true
					break
				}
			}
		}
		if !found {
			return
		}
	}
}

// dieWithTest makes a process get SIGKILL when the test binary that
// started it dies (a test killed at its timeout runs no cleanup).
func dieWithTest() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}

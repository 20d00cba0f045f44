//go:build linux

package fioengine

import (
	"bytes"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// markedProcs are the processes (but this one) whose environment holds
// entry ("NAME=value"), from /proc: a zombie has none and is left out.
func markedProcs(entry string) []int {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	want := []byte(entry)
	self := os.Getpid()
	var pids []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self {
			continue
		}
		env, err := os.ReadFile("/proc/" + itoa(pid) + "/environ")
		if err != nil {
			continue
		}
		for _, kv := range bytes.Split(env, []byte{0}) {
			if bytes.Equal(kv, want) {
				pids = append(pids, pid)
				break
			}
		}
	}
	return pids
}

// killPid kills process pid.
func killPid(pid int) { _ = unix.Kill(pid, unix.SIGKILL) }

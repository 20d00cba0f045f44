package fioengine

import (
	"os"
	"os/exec"
	"strconv"
)

// inOwnGroup does nothing on Windows, which has no process groups to signal.
func inOwnGroup(*exec.Cmd) {}

// interruptGroup stops fio: Windows has no SIGINT to send another process.
func interruptGroup(pid int) error {
	p, err := os.FindProcess(pid)
	if err != nil {
		return err
	}
	return p.Kill()
}

// killGroup does nothing more on Windows: interruptGroup already killed fio.
func killGroup(int) {}

// errnoName is fio's err= value as a number on Windows.
func errnoName(e int) string { return "errno " + strconv.Itoa(e) }

//go:build !windows

package fioengine

import (
	"os/exec"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"
)

// inOwnGroup starts cmd in a process group of its own, so signals reach
// the helpers fio forks too.
func inOwnGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

// interruptGroup sends SIGINT to process group pgid: fio prints its
// results on SIGINT.
func interruptGroup(pgid int) error { return unix.Kill(-pgid, unix.SIGINT) }

// killGroup kills what is left of process group pgid.
func killGroup(pgid int) { _ = unix.Kill(-pgid, unix.SIGKILL) }

// errnoName names fio's err= value ("EIO"), or its number when unknown.
func errnoName(e int) string {
	if n := unix.ErrnoName(syscall.Errno(e)); n != "" {
		return n
	}
	return "errno " + strconv.Itoa(e)
}

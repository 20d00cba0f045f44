//go:build !windows

package ioengine

import "syscall"

// simCPU reads this process's CPU time.
func simCPU() CPU {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return CPU{}
	}
	tv := func(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }
	return CPU{UsrS: tv(ru.Utime), SysS: tv(ru.Stime)}
}

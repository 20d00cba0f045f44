package device

// Roots names where procfs, sysfs and the device nodes are mounted, as
// prometheus/procfs's NewFS takes a mount point. The zero value means the
// running system's /proc, /sys and /dev; tests point them at fixture trees.
// Package guard reads the system through the same value.
type Roots struct {
	Proc string // procfs mount point; "" means /proc
	Sys  string // sysfs mount point; "" means /sys
	Dev  string // device node directory; "" means /dev
}

func (r Roots) proc() string { return r.ProcRoot() }

func (r Roots) sys() string { return r.SysRoot() }

// ProcRoot is the procfs mount point: Proc, or /proc when Proc is "".
func (r Roots) ProcRoot() string {
	if r.Proc == "" {
		return "/proc"
	}
	return r.Proc
}

// SysRoot is the sysfs mount point: Sys, or /sys when Sys is "".
func (r Roots) SysRoot() string {
	if r.Sys == "" {
		return "/sys"
	}
	return r.Sys
}

// DevRoot is the device node directory: Dev, or /dev when Dev is "".
func (r Roots) DevRoot() string {
	if r.Dev == "" {
		return "/dev"
	}
	return r.Dev
}

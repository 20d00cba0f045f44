package device

// Roots names where procfs and sysfs are mounted. The zero value means the
// running system's /proc and /sys; tests point them at fixture trees.
type Roots struct {
	Proc string // procfs mount point; "" means /proc
	Sys  string // sysfs mount point; "" means /sys
}

func (r Roots) proc() string {
	if r.Proc == "" {
		return "/proc"
	}
	return r.Proc
}

func (r Roots) sys() string {
	if r.Sys == "" {
		return "/sys"
	}
	return r.Sys
}

package sweep

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// HostFacts returns the host name, the kernel release (uname -r, read from
// procRoot/sys/kernel/osrelease; procRoot is normally "/proc") and the
// number of CPUs usable by this process. Unknown values are empty.
func HostFacts(procRoot string) (hostname, kernel string, cpus int) {
	hostname, _ = os.Hostname()
	if b, err := os.ReadFile(filepath.Join(procRoot, "sys", "kernel", "osrelease")); err == nil {
		kernel = strings.TrimSpace(string(b))
	}
	return hostname, kernel, runtime.NumCPU()
}

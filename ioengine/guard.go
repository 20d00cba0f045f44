package ioengine

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/sys/unix"
)

// Errors wrapped by CheckTarget and CheckWorkload. Every refusal wraps
// ErrWriteRefused and, where it applies, one of the more specific sentinels.
var (
	// ErrWriteRefused: a write workload was refused; the message names the flag or step that allows it.
	ErrWriteRefused = errors.New("write refused")
	// ErrDeviceBusy: the target is mounted, an active swap area, held by another
	// device (dm, md, loop backing) or claimed exclusively. No flag overrides it.
	ErrDeviceBusy = errors.New("device busy")
	// ErrHasPartitions: a whole block device with partitions (override: --destroy-data).
	ErrHasPartitions = errors.New("device has partitions")
	// ErrHasSignature: the device carries a known on-disk format (override: --destroy-data).
	ErrHasSignature = errors.New("device holds data")
	// ErrDestroyMismatch: --destroy-data names a different device than the target.
	ErrDestroyMismatch = errors.New("--destroy-data does not name the target")
	// ErrWouldExtend: the workload would write past the end of an existing file qdsweep did not create.
	ErrWouldExtend = errors.New("write would extend an existing file")
)

// WriteGuard carries the user's write permissions, from the command line.
type WriteGuard struct {
	// AllowWrite (--allow-write) permits write workloads on an existing regular file.
	AllowWrite bool
	// AllowWriteDevice (--allow-write-device) permits write workloads on a blank,
	// unmounted, unpartitioned block device or partition.
	AllowWriteDevice bool
	// DestroyData (--destroy-data=/dev/X) names the target device a second time,
	// confirming that its partitions or data may be overwritten. It needs
	// AllowWriteDevice as well, and never overrides a mounted or busy device.
	DestroyData string
	// Created is true when qdsweep created the target file itself (a scratch file).
	Created bool
}

// refusal is the error CheckTarget returns: a one-line message plus the sentinels it wraps.
type refusal struct {
	msg  string
	kind error // nil or a specific sentinel
}

func (r *refusal) Error() string { return r.msg }

func (r *refusal) Unwrap() []error {
	if r.kind == nil {
		return []error{ErrWriteRefused}
	}
	return []error{r.kind, ErrWriteRefused}
}

func refuse(kind error, format string, a ...any) error {
	return &refusal{msg: fmt.Sprintf(format, a...), kind: kind}
}

// guard checks targets against the system state under procRoot and sysRoot.
type guard struct {
	procRoot string // normally "/proc"
	sysRoot  string // normally "/sys"
}

var systemGuard = guard{procRoot: "/proc", sysRoot: "/sys"}

// CheckTarget decides whether workload pattern rw may run against path.
// Reads are always allowed. Writes to a path that does not exist yet, or to
// a file qdsweep created (g.Created), are allowed. An existing regular file
// needs g.AllowWrite and must not be an active swap file or a loop device's
// backing file. A block device (whole disk or partition) needs
// g.AllowWriteDevice and is then refused when it is mounted, used as swap,
// held by another device or claimed exclusively (ErrDeviceBusy, no
// override), and when it has partitions (ErrHasPartitions) or carries a
// known signature in its first or last MiB (ErrHasSignature) unless
// g.DestroyData names the same device. Refusals wrap ErrWriteRefused and
// read as one line naming the flag or step that would allow the write.
func CheckTarget(path string, rw RW, g WriteGuard) error {
	return systemGuard.checkTarget(path, rw, g)
}

// CheckWorkload runs CheckTarget for w and, for a write workload on an
// existing regular file qdsweep did not create, refuses a region (Offset,
// Size, OffsetIncrement × NumJobs) reaching past the end of the file
// (ErrWouldExtend): qdsweep never extends or truncates a file it did not create.
func CheckWorkload(w Workload, g WriteGuard) error {
	if err := CheckTarget(w.Filename, w.RW, g); err != nil {
		return err
	}
	if !w.RW.IsWrite() || g.Created {
		return nil
	}
	fi, err := os.Stat(w.Filename)
	if err != nil || !fi.Mode().IsRegular() {
		return nil
	}
	jobs := int64(w.NumJobs)
	if jobs < 1 {
		jobs = 1
	}
	size := w.Size
	if size == 0 {
		size = fi.Size() - w.Offset
	}
	end := w.Offset + (jobs-1)*w.OffsetIncrement + size
	if end > fi.Size() || w.Offset < 0 || size < 0 {
		return refuse(ErrWouldExtend, "%s is %d bytes and the workload would write up to byte %d; qdsweep never extends a file it did not create (lower --size/--offset or use a new --filename)",
			w.Filename, fi.Size(), end)
	}
	return nil
}

func (gd guard) checkTarget(path string, rw RW, g WriteGuard) error {
	if !rw.IsWrite() {
		return nil
	}
	fi, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil // qdsweep will create it
	}
	if err != nil {
		return fmt.Errorf("check write target: %w", err)
	}
	switch {
	case fi.Mode().IsRegular():
		return gd.checkFile(path, fi, g)
	case fi.Mode()&os.ModeDevice != 0 && fi.Mode()&os.ModeCharDevice == 0:
		return gd.checkDevice(path, fi, g)
	}
	return refuse(nil, "%s is %s, neither a regular file nor a block device; refusing to write to it", path, kindOf(fi.Mode()))
}

// kindOf names a file type for messages.
func kindOf(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&os.ModeCharDevice != 0:
		return "a character device"
	case m&os.ModeNamedPipe != 0:
		return "a named pipe"
	case m&os.ModeSocket != 0:
		return "a socket"
	}
	return "a special file"
}

func (gd guard) checkFile(path string, fi os.FileInfo, g WriteGuard) error {
	if swaps, err := gd.swaps(); err == nil {
		for _, s := range swaps {
			if si, err := os.Stat(s); err == nil && os.SameFile(fi, si) {
				return refuse(ErrDeviceBusy, "%s is an active swap file; refusing to write (swapoff it first)", path)
			}
		}
	}
	if loop := gd.loopBacking(fi); loop != "" {
		return refuse(ErrDeviceBusy, "%s backs loop device /dev/%s; refusing to write (detach it with losetup -d first)", path, loop)
	}
	if g.Created {
		return nil
	}
	if !g.AllowWrite {
		return refuse(nil, "%s already exists; refusing to overwrite its contents (pass --allow-write, or name a new --filename)", path)
	}
	return nil
}

// loopBacking returns the name of a loop device whose backing file is fi, or "".
func (gd guard) loopBacking(fi os.FileInfo) string {
	ents, err := os.ReadDir(filepath.Join(gd.sysRoot, "class", "block"))
	if err != nil {
		return ""
	}
	for _, e := range ents {
		if !strings.HasPrefix(e.Name(), "loop") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(gd.sysRoot, "class", "block", e.Name(), "loop", "backing_file"))
		if err != nil {
			continue
		}
		name := strings.TrimSuffix(strings.TrimSpace(string(b)), " (deleted)")
		if bi, err := os.Stat(name); err == nil && os.SameFile(fi, bi) {
			return e.Name()
		}
	}
	return ""
}

func (gd guard) checkDevice(path string, fi os.FileInfo, g WriteGuard) error {
	if !g.AllowWriteDevice {
		return refuse(nil, "%s is a block device; writing destroys its data: pass --allow-write-device to allow it", path)
	}
	destroy := false
	if g.DestroyData != "" {
		di, err := os.Stat(g.DestroyData)
		if err != nil || !os.SameFile(fi, di) {
			return refuse(ErrDestroyMismatch, "--destroy-data=%s does not name the target %s; name the same device twice to confirm", g.DestroyData, path)
		}
		destroy = true
	}
	var st unix.Stat_t
	if err := unix.Stat(path, &st); err != nil {
		return fmt.Errorf("check write target %s: %w", path, err)
	}
	name := gd.devName(st.Rdev)
	devs := []devNode{{name: name, dev: devNumber(st.Rdev)}}
	if name != "" {
		devs[0].dir = filepath.Join(gd.sysRoot, "class", "block", name)
	}
	parts := gd.partitions(devs[0].name)
	devs = append(devs, parts...)
	if err := gd.checkBusy(path, devs); err != nil {
		return err
	}
	if err := checkExclusive(path); err != nil {
		return err
	}
	if destroy {
		return nil
	}
	if len(parts) > 0 {
		names := make([]string, len(parts))
		for i, p := range parts {
			names[i] = p.name
		}
		return refuse(ErrHasPartitions, "%s has partitions (%s); refusing to write to the whole device (pass --destroy-data=%s to overwrite them)",
			path, strings.Join(names, ", "), path)
	}
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("check %s for existing data: %w", path, err)
	}
	defer f.Close()
	size, err := f.Seek(0, io.SeekEnd)
	if err != nil {
		return fmt.Errorf("check %s for existing data: size: %w", path, err)
	}
	if sig, found := DetectSignature(f, size); found {
		return refuse(ErrHasSignature, "%s holds %s; refusing to write (pass --destroy-data=%s to overwrite it)", path, sig, path)
	}
	return nil
}

// devNode is a block device as sysfs names it, with its "major:minor".
type devNode struct {
	name string // e.g. "loop3", "nvme0n1p2" ("" when sysfs does not know it)
	dev  string // "major:minor"
	dir  string // its sysfs directory ("" when sysfs does not know it)
}

func devNumber(rdev uint64) string {
	return fmt.Sprintf("%d:%d", unix.Major(rdev), unix.Minor(rdev))
}

// devName maps a device number to its sysfs name through /sys/dev/block/M:m.
func (gd guard) devName(rdev uint64) string {
	link, err := os.Readlink(filepath.Join(gd.sysRoot, "dev", "block", devNumber(rdev)))
	if err != nil {
		return ""
	}
	return filepath.Base(link)
}

// partitions lists the partitions of whole device name: its sysfs
// subdirectories that hold a "partition" file.
func (gd guard) partitions(name string) []devNode {
	if name == "" {
		return nil
	}
	dir := filepath.Join(gd.sysRoot, "class", "block", name)
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var parts []devNode
	for _, e := range ents {
		if !strings.HasPrefix(e.Name(), name) {
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, e.Name(), "partition")); err != nil {
			continue
		}
		dev, _ := os.ReadFile(filepath.Join(dir, e.Name(), "dev"))
		parts = append(parts, devNode{name: e.Name(), dev: strings.TrimSpace(string(dev)), dir: filepath.Join(dir, e.Name())})
	}
	sort.Slice(parts, func(i, j int) bool { return parts[i].name < parts[j].name })
	return parts
}

// checkBusy refuses when the device or one of its partitions is mounted,
// used as swap or held by another block device.
func (gd guard) checkBusy(path string, devs []devNode) error {
	mounts, err := gd.mounts()
	if err != nil {
		return fmt.Errorf("check %s is not mounted: %w", path, err)
	}
	for _, d := range devs {
		for _, m := range mounts {
			if m.dev == d.dev || sameDevice(m.source, d) {
				what := path
				if d != devs[0] {
					what = path + " (partition " + d.name + ")"
				}
				return refuse(ErrDeviceBusy, "%s is mounted at %s; refusing to write (unmount it first)", what, m.point)
			}
		}
	}
	swaps, err := gd.swaps()
	if err != nil {
		return fmt.Errorf("check %s is not swap: %w", path, err)
	}
	for _, d := range devs {
		for _, s := range swaps {
			if sameDevice(s, d) {
				return refuse(ErrDeviceBusy, "%s is an active swap area (%s); refusing to write (swapoff it first)", path, s)
			}
		}
	}
	for _, d := range devs {
		if d.dir == "" {
			continue
		}
		ents, err := os.ReadDir(filepath.Join(d.dir, "holders"))
		if err != nil || len(ents) == 0 {
			continue
		}
		names := make([]string, len(ents))
		for i, e := range ents {
			names[i] = e.Name()
		}
		return refuse(ErrDeviceBusy, "%s is held by %s (device mapper, RAID or another stacked device); refusing to write (release it first)",
			path+partSuffix(d, devs[0]), strings.Join(names, ", "))
	}
	return nil
}

func partSuffix(d, whole devNode) string {
	if d == whole {
		return ""
	}
	return " (partition " + d.name + ")"
}

// sameDevice reports whether a path from mountinfo or /proc/swaps names d:
// by device number when the path exists, else by its /dev/<name> spelling.
func sameDevice(p string, d devNode) bool {
	if !strings.HasPrefix(p, "/") {
		return false
	}
	var st unix.Stat_t
	if err := unix.Stat(p, &st); err == nil {
		return st.Mode&unix.S_IFMT == unix.S_IFBLK && devNumber(st.Rdev) == d.dev
	}
	return d.name != "" && filepath.Clean(p) == "/dev/"+d.name
}

// checkExclusive opens path with O_EXCL: the kernel answers EBUSY when the
// device is mounted or claimed (RAID, LVM, another exclusive opener).
func checkExclusive(path string) error {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_EXCL|unix.O_CLOEXEC, 0)
	if errors.Is(err, unix.EBUSY) {
		return refuse(ErrDeviceBusy, "%s is busy (mounted, part of a RAID/LVM/dm device or opened exclusively elsewhere); refusing to write", path)
	}
	if err != nil {
		return fmt.Errorf("open %s exclusively: %w", path, err)
	}
	return unix.Close(fd)
}

// mountEntry is one line of mountinfo.
type mountEntry struct {
	dev    string // "major:minor" of the mounted filesystem
	point  string // mount point
	source string // mount source, e.g. /dev/sda1
}

func (gd guard) mounts() ([]mountEntry, error) {
	f, err := os.Open(filepath.Join(gd.procRoot, "self", "mountinfo"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return parseMountinfo(f)
}

// parseMountinfo reads /proc/self/mountinfo: "id parent major:minor root
// point options [optional…] - fstype source superoptions". Malformed lines are errors.
func parseMountinfo(r io.Reader) ([]mountEntry, error) {
	var ms []mountEntry
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for ln := 1; sc.Scan(); ln++ {
		line := sc.Text()
		if strings.TrimSpace(line) == "" {
			continue
		}
		f := strings.Fields(line)
		sep := -1
		for i := 6; i < len(f); i++ {
			if f[i] == "-" {
				sep = i
				break
			}
		}
		if len(f) < 7 || sep < 0 || sep+2 >= len(f) || !strings.Contains(f[2], ":") {
			return nil, fmt.Errorf("mountinfo line %d: malformed: %q", ln, line)
		}
		ms = append(ms, mountEntry{dev: f[2], point: unescapeOctal(f[4]), source: unescapeOctal(f[sep+2])})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("mountinfo: %w", err)
	}
	return ms, nil
}

func (gd guard) swaps() ([]string, error) {
	f, err := os.Open(filepath.Join(gd.procRoot, "swaps"))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil // kernel without swap support
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return parseSwaps(f)
}

// parseSwaps reads /proc/swaps ("Filename Type Size Used Priority" header,
// then one line per swap area) and returns the file names.
func parseSwaps(r io.Reader) ([]string, error) {
	var names []string
	sc := bufio.NewScanner(r)
	for ln := 1; sc.Scan(); ln++ {
		f := strings.Fields(sc.Text())
		if len(f) == 0 || (ln == 1 && f[0] == "Filename") {
			continue
		}
		names = append(names, unescapeOctal(f[0]))
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("swaps: %w", err)
	}
	return names, nil
}

// unescapeOctal undoes the kernel's \ooo escaping of spaces, tabs,
// newlines and backslashes in paths.
func unescapeOctal(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) && isOctalDigit(s[i+1]) && isOctalDigit(s[i+2]) && isOctalDigit(s[i+3]) {
			b.WriteByte((s[i+1]-'0')<<6 | (s[i+2]-'0')<<3 | (s[i+3] - '0'))
			i += 3
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func isOctalDigit(c byte) bool { return c >= '0' && c <= '7' }

//go:build linux

package ioengine

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"

	"github.com/qdsweep/qdsweep/device"
	"golang.org/x/sys/unix"
)

// Validate checks w for engine ("io_uring", "libaio", "psync", "sim", "fio")
// before anything runs. Errors wrap ErrBadWorkload and name the setting to
// change and how: a *SettingError (or *UringError), whose Line names each
// setting as its caller's options do. A missing file in an existing directory is accepted (the
// caller may create it); its size checks are then skipped.
func Validate(w Workload, engine string) error {
	for _, check := range []func(Workload, string) error{validateShape, validatePacing, validatePacingFamily, validateRegion, validateUring, validateVerify, validateZones, validatePrio} {
		if err := check(w, engine); err != nil {
			return err
		}
	}
	if engine == EngineSim {
		if w.Size == 0 {
			return refusef("%s: 0 bytes; use e.g. %s", SetSize, use(SetSize, "1g"))
		}
		if w.BS > w.Size {
			return refusef("%s: %d bytes is larger than %s (%d bytes); use a smaller %s or a larger %s", SetBS, w.BS, SetSize, w.Size, SetBS, SetSize)
		}
		if w.MinBS() != w.MaxBS() {
			return refusef("%s/%s: the sim engine models one block size; drop them or use a kernel engine", SetBSSplit, SetBSRange)
		}
		return nil
	}
	if len(w.Files) > 1 {
		if w.Files[0] != w.Filename || len(w.JobFiles) > 0 {
			return refusef("%s: a list of %d files must start with the target %s and cannot go with per-job files", SetFilename, len(w.Files), w.Filename)
		}
		for _, f := range w.Files {
			fw := w
			fw.Filename, fw.Files, fw.Size = f, nil, w.FileSize()
			if err := validateTarget(fw); err != nil {
				return err
			}
		}
		return nil
	}
	return validateTarget(w)
}

// validateShape checks the engine, pattern, block size and queue shape.
func validateShape(w Workload, engine string) error {
	if !engineNames[engine] {
		return refusef("%s: unknown engine %q; use io_uring, libaio or psync", SetEngine, engine)
	}
	switch w.RW {
	case Read, Write, RandRead, RandWrite, ReadWrite, RandRW:
	default:
		return refusef("%s: unknown pattern %q; use read, write, randread, randwrite, rw or randrw", SetRW, w.RW)
	}
	if w.BS <= 0 {
		return refusef("%s: %d bytes; use a positive block size, e.g. %s", SetBS, w.BS, use(SetBS, "4k"))
	}
	if w.BS > 1<<30 {
		return refusef("%s: %d bytes is over 1 GiB; use e.g. %s", SetBS, w.BS, use(SetBS, "1m"))
	}
	if err := w.Shape.validate(w); err != nil {
		return err
	}
	if w.IODepth < 1 || w.IODepth > MaxIODepth {
		return refusef("%s: %d is out of range; use 1..%d, e.g. %s", SetIODepth, w.IODepth, MaxIODepth, use(SetIODepth, 32))
	}
	if w.NumJobs < 1 || w.NumJobs > MaxNumJobs {
		return refusef("%s: %d is out of range; use 1..%d, e.g. %s", SetNumJobs, w.NumJobs, MaxNumJobs, use(SetNumJobs, 4))
	}
	if (engine == EngineIOUring || engine == "") && w.IODepth > MaxURingEntries {
		return refusef("%s: %d is over io_uring's %d entries per ring (the kernel refuses larger rings); use %s %s, or %s",
			SetIODepth, w.IODepth, MaxURingEntries, use(SetIODepth, MaxURingEntries),
			use(SetNumJobs, (w.IODepth*w.NumJobs+MaxURingEntries-1)/MaxURingEntries), use(SetEngine, EngineLibaio))
	}
	if engine == EnginePsync && w.IODepth > 1 {
		return refusef("%s: psync does one I/O at a time per job (iodepth %d); use %s for concurrency or %s", SetIODepth, w.IODepth, use(SetNumJobs, w.IODepth*w.NumJobs), use(SetEngine, EngineIOUring))
	}
	return nil
}

// validatePacing checks the rate caps, syncs and open flags, and what the
// simulator cannot model of them.
func validatePacing(w Workload, engine string) error {
	for _, r := range w.RateIOPS {
		if !(r >= 0) || math.IsInf(r, 0) {
			return refusef("%s: %g is not a rate; use I/Os per second per job, e.g. %s", SetRateIOPS, r, use(SetRateIOPS, 500))
		}
	}
	if w.SyncEvery < 0 {
		return refusef("%s/%s: %d; use a number of writes, e.g. %s", SetFsync, SetFdatasync, w.SyncEvery, use(SetFdatasync, 1))
	}
	if w.SyncEvery > 0 && engine != EnginePsync {
		return refusef("%s/%s: qdsweep syncs with %s (or sync) only, one sync after every N writes of a job; use %s", SetFsync, SetFdatasync, use(SetEngine, EnginePsync), use(SetEngine, EnginePsync))
	}
	switch w.OpenSync {
	case "", "sync", "dsync":
	default:
		return refusef("%s: %q; use sync (O_SYNC), dsync (O_DSYNC) or 0", SetSync, w.OpenSync)
	}
	if engine == EngineSim && w.OpenSync != "" {
		return refusef("%s: the sim engine models a device, not a file's open flags; drop %s or use a kernel engine", SetSync, SetSync)
	}
	if engine == EngineSim && w.RateIOPS != [2]float64{} {
		return refusef("%s: the sim engine models a device, not a paced job; drop %s or use %s, libaio or psync", SetRateIOPS, SetRateIOPS, use(SetEngine, EngineIOUring))
	}
	return nil
}

// validateRegion checks the mix, the region's numbers and the timeout.
func validateRegion(w Workload, _ string) error {
	if w.RWMixRead < 0 || w.RWMixRead > 100 {
		return refusef("%s: %d is out of range; use a percentage 0..100, e.g. %s", SetRWMixRead, w.RWMixRead, use(SetRWMixRead, 70))
	}
	if w.Size < 0 || w.Offset < 0 || w.OffsetIncrement < 0 {
		return refusef("%s/%s/%s: negative values; use sizes like 1g, 0", SetSize, SetOffset, SetOffsetIncrement)
	}
	if w.IOTimeout < 0 {
		return badf("--io_timeout: negative; use e.g. --io_timeout=30s")
	}
	return nil
}

// validateZones checks the workload's strided zones (CheckZones).
func validateZones(w Workload, _ string) error { return w.CheckZones() }

// validateUring checks fio's io_uring options: given only for io_uring
// (or fio, which runs them in its io_uring engine); hipri only where
// completions can be polled. A refusal is a *UringError.
func validateUring(w Workload, engine string) error {
	o := w.Uring
	if !o.Set() {
		return nil
	}
	refuse := func(s UringSetting, fix UringFix, cause string) error {
		return &UringError{Setting: s, Cause: cause, Fix: fix, Refused: true}
	}
	if engine != EngineIOUring && engine != "" && engine != EngineFio {
		return &UringError{Setting: o.Given()[0], Fix: UringFixEngine, Engine: engine, Refused: true}
	}
	if o.SQThreadPoll && o.SQThreadPin && engine != EngineFio {
		var set unix.CPUSet
		if err := unix.SchedGetaffinity(0, &set); err == nil && (o.SQThreadCPU < 0 || !set.IsSet(o.SQThreadCPU)) {
			return &UringError{Setting: UringSQThreadCPU, Fix: UringFixCPU, N: firstCPU(&set), Refused: true,
				Cause: fmt.Sprintf("CPU %d is not among the CPUs this process may run on", o.SQThreadCPU)}
		}
	}
	if !o.HiPri {
		return nil
	}
	if !w.Direct {
		return refuse(UringHiPri, UringFixDirect, "polled completions need O_DIRECT")
	}
	if engine == EngineFio || w.Filename == "" {
		return nil // fio checks its own; a simulated target has no queue
	}
	for _, f := range w.Targets() {
		d, err := device.Resolve(f)
		switch {
		case errors.Is(err, device.ErrNoBlockDevice):
			return refuse(UringHiPri, UringFixDrop, fmt.Sprintf("%v, with no device queue to poll", err))
		case err != nil:
			return refuse(UringHiPri, UringFixDrop, err.Error())
		case d.Queue.IOPoll == nil || !*d.Queue.IOPoll:
			disk := d.Name
			if d.Parent != "" {
				disk = d.Parent
			}
			return refuse(UringHiPri, UringFixDrop, fmt.Sprintf("%s's queue does not poll (/sys/block/%s/queue/io_poll is not 1: its driver has no poll queues, e.g. nvme.poll_queues=0)", disk, disk))
		}
	}
	return nil
}

// firstCPU is the lowest CPU in set.
func firstCPU(set *unix.CPUSet) int {
	for i := range len(set) * 64 {
		if set.IsSet(i) {
			return i
		}
	}
	return 0
}

// validateTarget checks the file or device and the region against it.
func validateTarget(w Workload) error {
	if w.Filename == "" {
		return refusef("%s: required; name a file or block device (e.g. %s)", SetFilename, use(SetFilename, "/mnt/data/qdsweep.test"))
	}
	var st unix.Stat_t
	exists := true
	if err := unix.Stat(w.Filename, &st); err != nil {
		if !errors.Is(err, unix.ENOENT) {
			return refusef("%s: %s: %v; name a file or block device you can open", SetFilename, w.Filename, err)
		}
		exists = false
		dir := filepath.Dir(w.Filename)
		if fi, derr := os.Stat(dir); derr != nil || !fi.IsDir() {
			return refusef("%s: directory %s does not exist; create it or name a file in an existing directory", SetFilename, dir)
		}
		if unix.Access(dir, unix.W_OK) != nil {
			return refusef("%s: cannot create %s: permission denied on %s; choose a writable directory", SetFilename, w.Filename, dir)
		}
	}
	if exists {
		mode := st.Mode & unix.S_IFMT
		if mode != unix.S_IFREG && mode != unix.S_IFBLK {
			return refusef("%s: %s is not a regular file or block device; name one", SetFilename, w.Filename)
		}
		want := uint32(unix.R_OK)
		if w.RW.IsWrite() {
			want |= unix.W_OK
		}
		if unix.Access(w.Filename, want) != nil {
			what := "read"
			if w.RW.IsWrite() {
				what = "read and write"
			}
			return refusef("%s: %s: permission denied; run as a user that may %s it (e.g. with sudo)", SetFilename, w.Filename, what)
		}
	}
	if w.Direct {
		align, err := directAlign(w.Filename)
		if err != nil {
			return refusef("%s: %v", SetFilename, err)
		}
		for _, bs := range w.blockSizes() {
			if bs%int64(align) != 0 {
				return refusef("%s: %d bytes is not a multiple of the logical block size (%d bytes) of %s, which %s needs; use e.g. %s or %s",
					SetBS, bs, align, w.Filename, use(SetDirect, 1), use(SetBS, "4k"), use(SetDirect, 0))
			}
		}
		if a := int64(align); w.JobStart(0)%a != 0 || w.OffsetIncrement%a != 0 && (w.StartAlign%a != 0 || w.StartAlign == 0) {
			return refusef("%s/%s: not multiples of the logical block size (%d bytes), which %s needs; use e.g. %s",
				SetOffset, SetOffsetIncrement, align, use(SetDirect, 1), use(SetOffset, "1m"))
		}
	}
	if !exists {
		if w.Size == 0 {
			return refusef("%s: 0 bytes and %s does not exist; use e.g. %s", SetSize, w.Filename, use(SetSize, "1g"))
		}
		return w.fitsRegion(w.FileSize())
	}
	total, err := targetSize(w.Filename)
	if err != nil {
		return refusef("%s: %v", SetFilename, err)
	}
	sizes, err := jobSizes(w, total)
	if err != nil {
		return err
	}
	return w.fitsRegion(slices.Min(sizes))
}

// fitsRegion checks that w's largest I/O and its zoned_abs zones fit in a
// region of size bytes.
func (w Workload) fitsRegion(size int64) error {
	if bs := w.MaxBS(); bs > size {
		return refusef("%s: %d bytes is larger than the region (%d bytes); use a smaller %s or a larger %s", SetBS, bs, size, SetBS, SetSize)
	}
	if end := w.Shape.Dist.zonesEnd(); w.Shape.Dist.Kind == DistZonedAbs && end > size {
		return refusef("%s: the zoned_abs zones end at %d bytes, past the region's %d bytes (fio's job fails there); use smaller zones or a larger %s", SetRandomDistribution, end, size, SetSize)
	}
	return nil
}

// jobSizes returns the bytes each job covers: w.JobSize, or with 0 what
// is left of the target after the job's own start, as fio 3.33 sizes each
// clone without size= (offset_increment=10% over 1,000,000 bytes: 244, 219
// and 195 reads of 4k). It checks that every job's region lies inside the
// target (engines never extend a file).
func jobSizes(w Workload, total int64) ([]int64, error) {
	sizes := make([]int64, max(w.NumJobs, 1))
	for i := len(sizes) - 1; i >= 0; i-- { // the furthest start refused first
		start, size := w.JobStart(i), w.JobSize(i)
		if size == 0 {
			size = total - start
			if size <= 0 {
				return nil, refusef("%s: %s has no bytes past %s (%d bytes of %d); use a smaller %s or %s on a larger file", SetSize, w.Filename, SetOffset, start, total, SetOffset, use(SetSize, "1g"))
			}
		}
		if start+size > total {
			return nil, refusef("%s: the region (offset %d + %d bytes) ends past the end of %s (%d bytes) and qdsweep never extends a file (fio 3.33 lays such a file out again, its data lost, even to read it); use %s or less, or a larger file",
				SetSize, start, size, w.Filename, total, use(SetSize, max(total-start, 0)))
		}
		sizes[i] = size
	}
	return sizes, nil
}

// targetSize returns the size in bytes of a regular file or block device.
func targetSize(path string) (int64, error) {
	var st unix.Stat_t
	if err := unix.Stat(path, &st); err != nil {
		return 0, fmt.Errorf("stat %s: %w", path, err)
	}
	if st.Mode&unix.S_IFMT != unix.S_IFBLK {
		return st.Size, nil
	}
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return 0, fmt.Errorf("open %s: %w", path, err)
	}
	defer unix.Close(fd)
	return fdSize(fd, path)
}

// fdSize is the size of the file or block device open as fd (path names
// it in errors).
func fdSize(fd int, path string) (int64, error) {
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return 0, fmt.Errorf("stat %s: %w", path, err)
	}
	if st.Mode&unix.S_IFMT != unix.S_IFBLK {
		return st.Size, nil
	}
	n, err := ioctlBlockSize64(fd)
	if err != nil {
		return 0, fmt.Errorf("size of %s: BLKGETSIZE64: %w", path, err)
	}
	return n, nil
}

// heldSize is the size of w.Filename: through its hold when the run holds
// it (the file judged and written, whatever the path leads to by now),
// else of what the path leads to.
func heldSize(w *Workload) (int64, error) {
	h := heldFor(w)
	if h == nil {
		return targetSize(w.Filename)
	}
	fd, err := h.Dup()
	if err != nil {
		return 0, err
	}
	defer unix.Close(fd)
	return fdSize(fd, w.Filename)
}

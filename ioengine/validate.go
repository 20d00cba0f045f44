//go:build linux

package ioengine

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"

	"github.com/qdsweep/qdsweep/device"
	"golang.org/x/sys/unix"
)

// Validate checks w for engine ("io_uring", "libaio", "psync", "sim", "fio")
// before anything runs. Errors wrap ErrBadWorkload and name the fio flag to
// change and how. A missing file in an existing directory is accepted (the
// caller may create it); its size checks are then skipped.
func Validate(w Workload, engine string) error {
	for _, check := range []func(Workload, string) error{validateShape, validatePacing, validatePacingFamily, validateRegion, validateUring, validateVerify} {
		if err := check(w, engine); err != nil {
			return err
		}
	}
	if engine == EngineSim {
		if w.Size == 0 {
			return badf("--size: 0 bytes; use e.g. --size=1g")
		}
		if w.BS > w.Size {
			return badf("--bs: %d bytes is larger than --size (%d bytes); use a smaller --bs or a larger --size", w.BS, w.Size)
		}
		if w.MinBS() != w.MaxBS() {
			return badf("--bssplit/--bsrange: the sim engine models one block size; drop them or use a kernel engine")
		}
		return nil
	}
	if len(w.Files) > 1 {
		if w.Files[0] != w.Filename || len(w.JobFiles) > 0 {
			return badf("--filename: a list of %d files must start with the target %s and cannot go with per-job files", len(w.Files), w.Filename)
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
		return badf("--ioengine: unknown engine %q; use io_uring, libaio or psync", engine)
	}
	switch w.RW {
	case Read, Write, RandRead, RandWrite, ReadWrite, RandRW:
	default:
		return badf("--rw: unknown pattern %q; use read, write, randread, randwrite, rw or randrw", w.RW)
	}
	if w.BS <= 0 {
		return badf("--bs: %d bytes; use a positive block size, e.g. --bs=4k", w.BS)
	}
	if w.BS > 1<<30 {
		return badf("--bs: %d bytes is over 1 GiB; use e.g. --bs=1m", w.BS)
	}
	if err := w.Shape.validate(w); err != nil {
		return err
	}
	if w.IODepth < 1 || w.IODepth > MaxIODepth {
		return badf("--iodepth: %d is out of range; use 1..%d, e.g. --iodepth=32", w.IODepth, MaxIODepth)
	}
	if w.NumJobs < 1 || w.NumJobs > MaxNumJobs {
		return badf("--numjobs: %d is out of range; use 1..%d, e.g. --numjobs=4", w.NumJobs, MaxNumJobs)
	}
	if (engine == EngineIOUring || engine == "") && w.IODepth > MaxURingEntries {
		return badf("--iodepth: %d is over io_uring's %d entries per ring (the kernel refuses larger rings); use --iodepth=%d --numjobs=%d, or --ioengine=libaio",
			w.IODepth, MaxURingEntries, MaxURingEntries, (w.IODepth*w.NumJobs+MaxURingEntries-1)/MaxURingEntries)
	}
	if engine == EnginePsync && w.IODepth > 1 {
		return badf("--iodepth: psync does one I/O at a time per job (iodepth %d); use --numjobs=%d for concurrency or --ioengine=io_uring", w.IODepth, w.IODepth*w.NumJobs)
	}
	return nil
}

// validatePacing checks the rate caps, syncs and open flags, and what the
// simulator cannot model of them.
func validatePacing(w Workload, engine string) error {
	for _, r := range w.RateIOPS {
		if !(r >= 0) || math.IsInf(r, 0) {
			return badf("--rate_iops: %g is not a rate; use I/Os per second per job, e.g. --rate_iops=500", r)
		}
	}
	if w.SyncEvery < 0 {
		return badf("--fsync/--fdatasync: %d; use a number of writes, e.g. --fdatasync=1", w.SyncEvery)
	}
	if w.SyncEvery > 0 && engine != EnginePsync {
		return badf("--fsync/--fdatasync: qdsweep syncs with --ioengine=psync (or sync) only, one sync after every N writes of a job; use --ioengine=psync")
	}
	switch w.OpenSync {
	case "", "sync", "dsync":
	default:
		return badf("--sync: %q; use sync (O_SYNC), dsync (O_DSYNC) or 0", w.OpenSync)
	}
	if engine == EngineSim && w.OpenSync != "" {
		return badf("--sync: the sim engine models a device, not a file's open flags; drop --sync or use a kernel engine")
	}
	if engine == EngineSim && w.RateIOPS != [2]float64{} {
		return badf("--rate_iops: the sim engine models a device, not a paced job; drop --rate_iops or use --ioengine=io_uring, libaio or psync")
	}
	return nil
}

// validateRegion checks the mix, the region's numbers and the timeout.
func validateRegion(w Workload, _ string) error {
	if w.RWMixRead < 0 || w.RWMixRead > 100 {
		return badf("--rwmixread: %d is out of range; use a percentage 0..100, e.g. --rwmixread=70", w.RWMixRead)
	}
	if w.Size < 0 || w.Offset < 0 || w.OffsetIncrement < 0 {
		return badf("--size/--offset/--offset_increment: negative values; use sizes like 1g, 0")
	}
	if w.IOTimeout < 0 {
		return badf("--io_timeout: negative; use e.g. --io_timeout=30s")
	}
	return nil
}

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
		return badf("--filename: required; name a file or block device (e.g. --filename=/mnt/data/qdsweep.test)")
	}
	var st unix.Stat_t
	exists := true
	if err := unix.Stat(w.Filename, &st); err != nil {
		if !errors.Is(err, unix.ENOENT) {
			return badf("--filename: %s: %v; name a file or block device you can open", w.Filename, err)
		}
		exists = false
		dir := filepath.Dir(w.Filename)
		if fi, derr := os.Stat(dir); derr != nil || !fi.IsDir() {
			return badf("--filename: directory %s does not exist; create it or name a file in an existing directory", dir)
		}
		if unix.Access(dir, unix.W_OK) != nil {
			return badf("--filename: cannot create %s: permission denied on %s; choose a writable directory", w.Filename, dir)
		}
	}
	if exists {
		mode := st.Mode & unix.S_IFMT
		if mode != unix.S_IFREG && mode != unix.S_IFBLK {
			return badf("--filename: %s is not a regular file or block device; name one", w.Filename)
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
			return badf("--filename: %s: permission denied; run as a user that may %s it (e.g. with sudo)", w.Filename, what)
		}
	}
	if w.Direct {
		align, err := directAlign(w.Filename)
		if err != nil {
			return badf("--filename: %v", err)
		}
		for _, bs := range w.blockSizes() {
			if bs%int64(align) != 0 {
				return badf("--bs: %d bytes is not a multiple of the logical block size (%d bytes) of %s, which --direct=1 needs; use e.g. --bs=4k or --direct=0", bs, align, w.Filename)
			}
		}
		if w.Offset%int64(align) != 0 || w.OffsetIncrement%int64(align) != 0 {
			return badf("--offset/--offset_increment: not multiples of the logical block size (%d bytes), which --direct=1 needs; use e.g. --offset=1m", align)
		}
	}
	if !exists {
		if w.Size == 0 {
			return badf("--size: 0 bytes and %s does not exist; use e.g. --size=1g", w.Filename)
		}
		return w.fitsRegion(w.FileSize())
	}
	total, err := targetSize(w.Filename)
	if err != nil {
		return badf("--filename: %v", err)
	}
	size, err := regionSize(w, total)
	if err != nil {
		return err
	}
	return w.fitsRegion(size)
}

// fitsRegion checks that w's largest I/O and its zoned_abs zones fit in a
// region of size bytes.
func (w Workload) fitsRegion(size int64) error {
	if bs := w.MaxBS(); bs > size {
		return badf("--bs: %d bytes is larger than the region (%d bytes); use a smaller --bs or a larger --size", bs, size)
	}
	if end := w.Shape.Dist.zonesEnd(); w.Shape.Dist.Kind == DistZonedAbs && end > size {
		return badf("--random_distribution: the zoned_abs zones end at %d bytes, past the region's %d bytes (fio's job fails there); use smaller zones or a larger --size", end, size)
	}
	return nil
}

// regionSize returns the bytes each job covers: w.Size, or with Size 0 what
// is left of the target after the last job's start. It checks that every job's
// region lies inside the target (engines never extend a file).
func regionSize(w Workload, total int64) (int64, error) {
	lastStart := w.Offset + int64(w.NumJobs-1)*w.OffsetIncrement
	size := w.Size
	if size == 0 {
		size = total - lastStart
		if size <= 0 {
			return 0, badf("--size: %s has no bytes past --offset (%d bytes of %d); use a smaller --offset or --size=1g on a larger file", w.Filename, lastStart, total)
		}
	}
	if lastStart+size > total {
		return 0, badf("--size: the region (offset %d + %d bytes) ends past the end of %s (%d bytes) and qdsweep never extends a file; use --size=%d or less, or a larger file",
			lastStart, size, w.Filename, total, max(total-lastStart, 0))
	}
	return size, nil
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
	n, err := ioctlBlockSize64(fd)
	if err != nil {
		return 0, fmt.Errorf("size of %s: BLKGETSIZE64: %w", path, err)
	}
	return n, nil
}

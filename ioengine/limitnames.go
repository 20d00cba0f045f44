package ioengine

// Names of the limits that can stop jobs from starting (Shortfall.Limit).
const (
	LimitNproc      = "RLIMIT_NPROC"   // processes and threads of the user
	LimitPidsMax    = "pids.max"       // the cgroup's task limit
	LimitThreadsMax = "threads-max"    // kernel.threads-max, system-wide
	LimitNofile     = "RLIMIT_NOFILE"  // open files of the process (one per io_uring ring)
	LimitMemlock    = "RLIMIT_MEMLOCK" // locked memory (io_uring rings on older kernels)
	LimitMemory     = "memory"         // mapping the I/O buffers failed
	LimitAIOMaxNr   = "fs.aio-max-nr"  // system-wide Linux AIO events
	LimitFileMax    = "fs.file-max"    // system-wide open files
	LimitOther      = "resource"       // another resource error from the kernel
	limitNone       = ""
)

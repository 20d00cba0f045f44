//go:build linux

package ioengine

// Kernel ABI of io_uring (include/uapi/linux/io_uring.h). The uapi's
// structures are fixed-width (__u8 … __u64, pointers carried in __u64), so
// these layouts hold on every Linux architecture and byte order; iovec is
// the exception (native words). Sizes and offsets are checked as the
// package compiles (abi_layout.go), which CI does for 32- and 64-bit, big-
// and little-endian Linux, and by TestABISizes where it runs.
// golang.org/x/sys/unix has the syscall numbers but none of these.

// io_uring_setup flags.
const (
	uringSetupIOPoll       uint32 = 1 << 0
	uringSetupSQPoll       uint32 = 1 << 1
	uringSetupSQAff        uint32 = 1 << 2
	uringSetupSingleIssuer uint32 = 1 << 12
	uringSetupDeferTaskrun uint32 = 1 << 13
)

// Features reported in uringParams.features.
const (
	uringFeatSingleMmap uint32 = 1 << 0
	uringFeatExtArg     uint32 = 1 << 8
)

// io_uring_enter flags.
const (
	uringEnterGetEvents uint32 = 1 << 0
	uringEnterSQWakeup  uint32 = 1 << 1
	uringEnterExtArg    uint32 = 1 << 3
)

// The SQ ring's flags word: the SQPOLL thread sleeps and needs a wake-up.
const uringSQNeedWakeup uint32 = 1 << 0

// io_uring_sqe flags: fd is an index into the registered files.
const iosqeFixedFile uint8 = 1 << 0

// io_uring_register opcodes.
const (
	uringRegisterBuffers   = 0
	uringUnregisterBuffers = 1
	uringRegisterFiles     = 2
	uringRegisterProbe     = 8
	// uringRegisterIOWQMaxWorkers caps a ring's kernel worker threads
	// (bounded, unbounded); they count against RLIMIT_NPROC and pids.max.
	uringRegisterIOWQMaxWorkers = 19
	// uringRegisterIOWQAff sets the CPUs a ring's kernel workers run on.
	uringRegisterIOWQAff = 17
)

// mmap offsets of the rings.
const (
	uringOffSQRing int64 = 0
	uringOffCQRing int64 = 0x8000000
	uringOffSQEs   int64 = 0x10000000
)

// Opcodes used here.
const (
	uringOpReadv      uint8 = 1
	uringOpWritev     uint8 = 2
	uringOpReadFixed  uint8 = 4
	uringOpWriteFixed uint8 = 5
	uringOpTimeout    uint8 = 11
	uringOpRead       uint8 = 22
	uringOpWrite      uint8 = 23
)

// uringOpSupported is io_uring_probe_op.flags' "supported" bit.
const uringOpSupported = 1

// uringSQE is struct io_uring_sqe (64 bytes).
type uringSQE struct {
	opcode      uint8
	flags       uint8
	ioprio      uint16
	fd          int32
	off         uint64
	addr        uint64
	len         uint32
	rwFlags     uint32
	userData    uint64
	bufIndex    uint16
	personality uint16
	spliceFdIn  int32
	addr3       uint64
	pad         uint64
}

// uringCQE is struct io_uring_cqe (16 bytes, no CQE32).
type uringCQE struct {
	userData uint64
	res      int32
	flags    uint32
}

type uringSQOffsets struct {
	head, tail, ringMask, ringEntries, flags, dropped, array, resv1 uint32
	userAddr                                                        uint64
}

type uringCQOffsets struct {
	head, tail, ringMask, ringEntries, overflow, cqes, flags, resv1 uint32
	userAddr                                                        uint64
}

// uringParams is struct io_uring_params (120 bytes).
type uringParams struct {
	sqEntries, cqEntries, flags, sqThreadCPU, sqThreadIdle, features, wqFd uint32
	resv                                                                   [3]uint32
	sqOff                                                                  uringSQOffsets
	cqOff                                                                  uringCQOffsets
}

// uringGeteventsArg is struct io_uring_getevents_arg (IORING_ENTER_EXT_ARG).
type uringGeteventsArg struct {
	sigmask   uint64
	sigmaskSz uint32
	minWaitUs uint32
	ts        uint64 // address of a kernelTimespec
}

// kernelTimespec is struct __kernel_timespec.
type kernelTimespec struct {
	sec  int64
	nsec int64
}

// uringProbeHdr is the fixed head of struct io_uring_probe; uringProbeOp entries follow.
type uringProbeHdr struct {
	lastOp uint8
	opsLen uint8
	resv   uint16
	resv2  [3]uint32
}

type uringProbeOp struct {
	op    uint8
	resv  uint8
	flags uint16
	resv2 uint32
}

// iovec is struct iovec: native words (16 bytes on 64-bit, 8 on 32-bit
// architectures), unlike the fixed-width structures above.
type iovec struct {
	base uintptr
	len  uintptr
}

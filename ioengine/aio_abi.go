package ioengine

// Kernel ABI of Linux native AIO (include/uapi/linux/aio_abi.h): fixed-width
// fields (pointers carried in __u64), the same on every architecture but
// for the order of aio_key and aio_rw_flags, which the uapi swaps on
// big-endian machines (PADDED); qdsweep keeps both 0, so either order
// holds. Sizes and offsets are checked as the package compiles
// (abi_layout.go).

// iocb commands.
const (
	aioCmdPread  uint16 = 0
	aioCmdPwrite uint16 = 1
)

// aioIOCB is struct iocb (64 bytes).
type aioIOCB struct {
	data      uint64
	key       uint32
	rwFlags   uint32
	opcode    uint16
	reqprio   int16
	fildes    uint32
	buf       uint64
	nbytes    uint64
	offset    int64
	reserved2 uint64
	flags     uint32
	resfd     uint32
}

// aioEvent is struct io_event (32 bytes).
type aioEvent struct {
	data uint64
	obj  uint64
	res  int64
	res2 int64
}

// aioRingMagic marks the completion ring (struct aio_ring in fs/aio.c) the
// kernel maps into the process at the address io_setup returns as the context.
const aioRingMagic = 0xa10a10a1

// aioRingHdr is the 32-byte header of struct aio_ring; nr io_events follow
// it. head and tail are indices modulo nr: the kernel advances tail as I/Os
// complete, the reader (io_getevents or user space) advances head.
type aioRingHdr struct {
	id               uint32
	nr               uint32
	head             uint32
	tail             uint32
	magic            uint32
	compatFeatures   uint32
	incompatFeatures uint32
	headerLength     uint32
}

package ioengine

// Kernel ABI of Linux native AIO (include/uapi/linux/aio_abi.h), 64-bit little-endian.

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

//go:build linux

package ioengine

import (
	"errors"
	"fmt"
	"sync/atomic"
	"unsafe"

	"golang.org/x/sys/unix"
)

// maxRegBuffers is the kernel's limit on registered buffers (IORING_MAX_REG_BUFFERS).
const maxRegBuffers = 1 << 14

// ring is one mapped io_uring instance.
type ring struct {
	fd        int
	params    uringParams
	ringMem   []byte
	cqMem     []byte // nil with single mmap
	sqeMem    []byte
	sqHead    *uint32
	sqTail    *uint32
	sqMask    uint32
	sqes      []uringSQE
	cqHead    *uint32
	cqTail    *uint32
	cqMask    uint32
	cqes      []uringCQE
	sqTailV   uint32 // our copy of the SQ tail
	hasExtArg bool
	// sqPoll: a kernel thread takes the SQEs (IORING_SETUP_SQPOLL);
	// sqFlags tells when it sleeps and must be woken.
	sqPoll  bool
	sqFlags *uint32
}

// uringSetup calls io_uring_setup.
func uringSetup(entries uint32, p *uringParams) (int, error) {
	fd, _, e := unix.Syscall(unix.SYS_IO_URING_SETUP, uintptr(entries), uintptr(unsafe.Pointer(p)), 0)
	if e != 0 {
		return -1, e
	}
	return int(fd), nil
}

// ringSetup is how a ring is set up: io_uring_setup's flags (IOPOLL,
// SQPOLL, SQ_AFF) and the SQPOLL thread's CPU; fast asks for single-issuer
// with deferred task work, which SQPOLL and IOPOLL rings go without.
type ringSetup struct {
	flags uint32
	sqCPU uint32
	fast  bool
}

// newRing sets up and maps a ring of at least entries SQEs. With fast it
// tries single-issuer with deferred task work first (cheaper completions
// for a ring used by one thread), then plain setup on kernels that refuse
// the flags.
func newRing(entries uint32, rs ringSetup) (*ring, error) {
	r := &ring{fd: -1}
	var fd int
	var err error
	fast := rs.fast && rs.flags == 0
	if fast {
		r.params = uringParams{flags: uringSetupSingleIssuer | uringSetupDeferTaskrun}
		fd, err = uringSetup(entries, &r.params)
	}
	if !fast || errors.Is(err, unix.EINVAL) {
		r.params = uringParams{flags: rs.flags, sqThreadCPU: rs.sqCPU}
		fd, err = uringSetup(entries, &r.params)
	}
	if err != nil {
		return nil, fmt.Errorf("io_uring_setup: %w", err)
	}
	r.fd = fd
	r.sqPoll = r.params.flags&uringSetupSQPoll != 0
	if err := r.mmap(); err != nil {
		r.close()
		return nil, err
	}
	r.hasExtArg = r.params.features&uringFeatExtArg != 0
	return r, nil
}

func (r *ring) mmap() error {
	p := &r.params
	sqSize := int(p.sqOff.array) + int(p.sqEntries)*4
	cqSize := int(p.cqOff.cqes) + int(p.cqEntries)*int(unsafe.Sizeof(uringCQE{}))
	single := p.features&uringFeatSingleMmap != 0
	if single {
		sqSize = max(sqSize, cqSize)
	}
	prot, flags := unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED|unix.MAP_POPULATE
	var err error
	if r.ringMem, err = unix.Mmap(r.fd, uringOffSQRing, sqSize, prot, flags); err != nil {
		return fmt.Errorf("io_uring: mapping the SQ ring: %w", err)
	}
	cqMem := r.ringMem
	if !single {
		if r.cqMem, err = unix.Mmap(r.fd, uringOffCQRing, cqSize, prot, flags); err != nil {
			return fmt.Errorf("io_uring: mapping the CQ ring: %w", err)
		}
		cqMem = r.cqMem
	}
	sqeBytes := int(p.sqEntries) * int(unsafe.Sizeof(uringSQE{}))
	if r.sqeMem, err = unix.Mmap(r.fd, uringOffSQEs, sqeBytes, prot, flags); err != nil {
		return fmt.Errorf("io_uring: mapping the SQE array: %w", err)
	}
	u32 := func(mem []byte, off uint32) *uint32 { return (*uint32)(unsafe.Pointer(&mem[off])) }
	r.sqHead = u32(r.ringMem, p.sqOff.head)
	r.sqTail = u32(r.ringMem, p.sqOff.tail)
	r.sqFlags = u32(r.ringMem, p.sqOff.flags)
	r.sqMask = *u32(r.ringMem, p.sqOff.ringMask)
	array := unsafe.Slice(u32(r.ringMem, p.sqOff.array), p.sqEntries)
	for i := range array {
		array[i] = uint32(i) // SQE i sits in slot i, once and for all
	}
	r.sqes = unsafe.Slice((*uringSQE)(unsafe.Pointer(&r.sqeMem[0])), p.sqEntries)
	r.cqHead = u32(cqMem, p.cqOff.head)
	r.cqTail = u32(cqMem, p.cqOff.tail)
	r.cqMask = *u32(cqMem, p.cqOff.ringMask)
	r.cqes = unsafe.Slice((*uringCQE)(unsafe.Pointer(&cqMem[p.cqOff.cqes])), p.cqEntries)
	r.sqTailV = atomic.LoadUint32(r.sqTail)
	return nil
}

func (r *ring) close() {
	for _, m := range [][]byte{r.sqeMem, r.cqMem, r.ringMem} {
		if m != nil {
			_ = unix.Munmap(m)
		}
	}
	r.sqeMem, r.cqMem, r.ringMem = nil, nil, nil
	if r.fd >= 0 {
		_ = unix.Close(r.fd)
		r.fd = -1
	}
}

// register calls io_uring_register.
func (r *ring) register(op uintptr, arg unsafe.Pointer, n int) error {
	_, _, e := unix.Syscall6(unix.SYS_IO_URING_REGISTER, uintptr(r.fd), op, uintptr(arg), uintptr(n), 0, 0)
	if e != 0 {
		return e
	}
	return nil
}

// enter calls io_uring_enter, blocking until minComplete completions (or
// the timeout in arg, when arg is set). It returns the number of SQEs
// submitted. On an SQPOLL ring the kernel's thread takes the SQEs: a call
// that only submits is skipped unless the thread sleeps and must be woken.
func (r *ring) enter(toSubmit, minComplete uint32, flags uint32, arg *uringGeteventsArg) (int, error) {
	if r.sqPoll {
		if atomic.LoadUint32(r.sqFlags)&uringSQNeedWakeup != 0 {
			flags |= uringEnterSQWakeup
		} else if minComplete == 0 {
			return int(toSubmit), nil
		}
	}
	var argp, argsz uintptr
	if arg != nil {
		flags |= uringEnterExtArg
		argp, argsz = uintptr(unsafe.Pointer(arg)), unsafe.Sizeof(*arg)
	}
	n, _, e := unix.Syscall6(unix.SYS_IO_URING_ENTER, uintptr(r.fd), uintptr(toSubmit), uintptr(minComplete), uintptr(flags), argp, argsz)
	if e != 0 {
		return 0, e
	}
	return int(n), nil
}

// The ring's primitives, named after liburing's (the kernel's own calls
// are uringSetup, enter and register above). Each is a few loads and
// stores the compiler inlines.

// getSQE is liburing's io_uring_get_sqe: the next SQE, claimed for the
// caller to fill; flushSQ publishes it. The caller never claims more
// SQEs than the ring holds before the kernel takes them.
func (r *ring) getSQE() *uringSQE {
	sqe := &r.sqes[r.sqTailV&r.sqMask]
	r.sqTailV++
	return sqe
}

// flushSQ is liburing's __io_uring_flush_sq: the SQEs claimed so far are
// published to the kernel (a release store of the SQ tail); io_uring_enter
// then submits them.
func (r *ring) flushSQ() { atomic.StoreUint32(r.sqTail, r.sqTailV) }

// peekCQ is liburing's io_uring_peek_batch_cqe without the copy: the CQ
// ring's head and the kernel's tail (an acquire load); the CQEs between
// them are ready.
func (r *ring) peekCQ() (head, tail uint32) { return *r.cqHead, atomic.LoadUint32(r.cqTail) }

// cqe is the CQE at ring index i.
func (r *ring) cqe(i uint32) *uringCQE { return &r.cqes[i&r.cqMask] }

// cqAdvanceTo is liburing's io_uring_cq_advance, given the new head: the
// CQEs before head are seen and their entries go back to the kernel (a
// release store of the CQ head).
func (r *ring) cqAdvanceTo(head uint32) { atomic.StoreUint32(r.cqHead, head) }

// probeUring checks that io_uring can be set up and supports the opcodes
// the engine uses; the error says why not.
func probeUring() error {
	r, err := newRing(1, ringSetup{})
	if err != nil {
		return err
	}
	defer r.close()
	const nOps = 64
	buf := make([]byte, int(unsafe.Sizeof(uringProbeHdr{}))+nOps*int(unsafe.Sizeof(uringProbeOp{})))
	if err := r.register(uringRegisterProbe, unsafe.Pointer(&buf[0]), nOps); err != nil {
		return fmt.Errorf("io_uring_register(PROBE): %w (kernel too old)", err)
	}
	hdr := (*uringProbeHdr)(unsafe.Pointer(&buf[0]))
	ops := unsafe.Slice((*uringProbeOp)(unsafe.Pointer(&buf[unsafe.Sizeof(uringProbeHdr{})])), nOps)
	for _, op := range []uint8{uringOpRead, uringOpWrite} {
		if op > hdr.lastOp || ops[op].flags&uringOpSupported == 0 {
			return fmt.Errorf("io_uring lacks opcode %d (IORING_OP_READ/WRITE)", op)
		}
	}
	return nil
}

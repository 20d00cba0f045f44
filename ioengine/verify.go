package ioengine

import (
	"bytes"
	"crypto/md5"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math/rand/v2"
	"sync/atomic"
	"time"
)

// errVerify is the cause of a read whose data does not match its stamp.
var errVerify = errors.New("data does not match the verify stamp")

// stamp fills buf, to be written at file offset off, so that every 8-byte
// little-endian word holds its own byte offset in the file.
func stamp(buf []byte, off int64) {
	for i := 0; i+8 <= len(buf); i += 8 {
		binary.LittleEndian.PutUint64(buf[i:], uint64(off)+uint64(i))
	}
}

// stamped reports whether buf, read at file offset off, carries the stamp.
func stamped(buf []byte, off int64) bool {
	for i := 0; i+8 <= len(buf); i += 8 {
		if binary.LittleEndian.Uint64(buf[i:]) != uint64(off)+uint64(i) {
			return false
		}
	}
	return true
}

// The kinds of fio's verify= qdsweep runs (FioVerify.Kind).
const (
	VerifyCRC32C  = "crc32c"  // fio's crc32c and crc32c-intel: header, crc32c of the data
	VerifyMD5     = "md5"     // header, md5 of the data
	VerifyPattern = "pattern" // verify=pattern: every byte is verify_pattern's, no header
	// VerifyMeta is fio's verify=meta, or verify_pattern without verify=:
	// the header, then verify_pattern's bytes.
	VerifyMeta = "meta"
)

// FioVerify is fio's verify= family: what every write carries and every
// read is checked against, block by block, on disk exactly as fio 3.33
// writes it (verify.h's struct verify_header: magic 0xacca, type, length,
// seed, offset, time, thread, I/O number, then the header's crc32c and
// the data's checksum), so that either tool reads what the other wrote.
type FioVerify struct {
	Kind string // VerifyCRC32C, VerifyMD5, VerifyPattern or VerifyMeta ("": no verify)
	// Pattern is verify_pattern's bytes: the data of every block, repeated
	// (nil: random data, as fio's default).
	Pattern []byte
	// Interval is verify_interval: a header every Interval bytes of an
	// I/O (0: one per I/O of the smallest block size, fio's default).
	Interval int64
	// Written, when set, records the blocks a run writes, and a later run
	// with the same Written checks only those (the others were never
	// written: qdsweep's random offsets repeat, as fio's with norandommap).
	// Nil: every block read is checked.
	Written *WrittenBlocks `json:"-"`
	// Backlog is verify_backlog: after every Backlog writes waiting to be
	// checked, the job reads BacklogBatch of them back (Backlog when 0),
	// oldest first, while it writes, and the rest when its writes are done:
	// each write read back once, within the job's run (0: none).
	Backlog, BacklogBatch int
}

// WrittenBlocks is the set of verify blocks (by file offset / interval)
// written, safe for the jobs of a run to mark at once.
type WrittenBlocks struct {
	bits []atomic.Uint64
}

// NewWrittenBlocks holds blocks 0 … n−1.
func NewWrittenBlocks(n int64) *WrittenBlocks {
	return &WrittenBlocks{bits: make([]atomic.Uint64, (n+63)/64)}
}

func (b *WrittenBlocks) mark(i int64) {
	if b != nil && i >= 0 && i/64 < int64(len(b.bits)) {
		b.bits[i/64].Or(1 << (i % 64))
	}
}

// has reports whether block i was written (true for a nil set).
func (b *WrittenBlocks) has(i int64) bool {
	if b == nil {
		return true
	}
	return i >= 0 && i/64 < int64(len(b.bits)) && b.bits[i/64].Load()&(1<<(i%64)) != 0
}

// fio's verify_header, as laid out in fio 3.33 (verify.h).
const (
	fioHdrMagic  = 0xacca
	fioHdrLen    = 40 // magic 2, type 2, len 4, rand_seed 8, offset 8, time 4+4, thread 2, numberio 2, crc32 4
	fioHdrCRCOff = 36
)

// fioVerifyType is fio's enum value of a kind, written in the header.
var fioVerifyType = map[string]uint16{VerifyMD5: 2, VerifyCRC32C: 5, VerifyMeta: 1, VerifyPattern: 18}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// fioCRC32C is fio's crc32c: the Castagnoli CRC without its final inversion.
func fioCRC32C(b []byte) uint32 { return ^crc32.Checksum(b, castagnoli) }

// hdrSize is the bytes before a block's data: header and checksum.
func (v FioVerify) hdrSize() int {
	switch v.Kind {
	case VerifyCRC32C:
		return fioHdrLen + 4
	case VerifyMD5:
		return fioHdrLen + md5.Size
	case VerifyMeta:
		return fioHdrLen
	}
	return 0
}

// verifier stamps what a job writes and checks what it reads.
type verifier interface {
	// fill makes buf, about to be written at file offset off, verifiable.
	fill(buf []byte, off int64)
	// check returns nil when buf, read at off, is what fill wrote there,
	// else the offset of the first bad block and why.
	check(buf []byte, off int64) (int64, error)
}

// newVerifier is job idx's verifier of w (nil when w verifies nothing).
func newVerifier(w *Workload, idx int) verifier {
	switch {
	case w.FioVerify.Kind != "":
		iv := w.FioVerify.Interval
		if iv <= 0 {
			iv = w.MinBS()
		}
		return &fioVerifier{v: w.FioVerify, interval: iv, thread: uint16(idx + 1), buffers: w.Buffers,
			rng: rand.NewChaCha8([32]byte{byte(idx), byte(w.RandSeed), byte(w.RandSeed >> 8), 0xac, 0xca})}
	case w.Verify:
		return offsetStamp{}
	}
	return nil
}

// offsetStamp is qdsweep's own stamp (Workload.Verify).
type offsetStamp struct{}

func (offsetStamp) fill(buf []byte, off int64) { stamp(buf, off) }

func (offsetStamp) check(buf []byte, off int64) (int64, error) {
	if !stamped(buf, off) {
		return off, errVerify
	}
	return off, nil
}

// fioVerifier writes and checks fio's blocks.
type fioVerifier struct {
	v        FioVerify
	interval int64
	thread   uint16
	numberio uint16
	rng      *rand.ChaCha8
	// buffers: its random data keeps Compress percent compressible, as
	// fio's fill_verify_pattern fills a block (one segment a write).
	buffers Buffers
}

// chunk is the bytes each header covers in an I/O of n bytes (fio's
// get_hdr_inc): the interval, or the whole I/O when that is shorter.
func (f *fioVerifier) chunk(n int) int {
	if f.interval > 0 && f.interval <= int64(n) {
		return int(f.interval)
	}
	return n
}

func (f *fioVerifier) fill(buf []byte, off int64) {
	seed := f.rng.Uint64()
	if len(f.v.Pattern) > 0 {
		for i := range buf {
			buf[i] = f.v.Pattern[i%len(f.v.Pattern)]
		}
	} else {
		_, _ = rand.NewChaCha8([32]byte{byte(seed), byte(seed >> 8), byte(seed >> 16), byte(seed >> 24)}).Read(buf)
		if c := f.buffers.Compress; c > 0 {
			fillPattern(buf[len(buf)*(100-c)/100:], f.buffers.Pattern)
		}
	}
	f.numberio++
	for p := int64(0); p < int64(len(buf)); p += f.interval {
		f.v.Written.mark((off + p) / f.interval)
	}
	if f.v.Kind == VerifyPattern {
		return
	}
	now := time.Now()
	inc, hs := f.chunk(len(buf)), f.v.hdrSize()
	for n, p := 0, 0; p+hs < len(buf); n, p = n+1, p+inc {
		h := buf[p:]
		binary.LittleEndian.PutUint16(h[0:], fioHdrMagic)
		binary.LittleEndian.PutUint16(h[2:], f.typ())
		binary.LittleEndian.PutUint32(h[4:], uint32(inc))
		binary.LittleEndian.PutUint64(h[8:], seed)
		binary.LittleEndian.PutUint64(h[16:], uint64(off+int64(n)*f.interval))
		binary.LittleEndian.PutUint32(h[24:], uint32(now.Unix()))
		binary.LittleEndian.PutUint32(h[28:], uint32(now.Nanosecond()))
		binary.LittleEndian.PutUint16(h[32:], f.thread)
		binary.LittleEndian.PutUint16(h[34:], f.numberio-1)
		binary.LittleEndian.PutUint32(h[fioHdrCRCOff:], fioCRC32C(h[:fioHdrCRCOff]))
		data := h[hs:min(inc, len(h))]
		switch f.v.Kind {
		case VerifyCRC32C:
			binary.LittleEndian.PutUint32(h[fioHdrLen:], fioCRC32C(data))
		case VerifyMD5:
			sum := md5.Sum(data)
			copy(h[fioHdrLen:], sum[:])
		}
	}
}

func (f *fioVerifier) check(buf []byte, off int64) (int64, error) {
	inc := f.chunk(len(buf))
	for n, p := 0, 0; p < len(buf); n, p = n+1, p+inc {
		blk := buf[p:min(p+inc, len(buf))]
		if !f.v.Written.has((off + int64(p)) / f.interval) {
			continue // never written by the run that wrote
		}
		if err := f.checkBlock(blk, n, inc, off); err != nil {
			if t := f.mediaType(blk); t != f.typ() {
				err = fmt.Errorf("%w; verify type mismatch (%d media, %d given)", err, t, f.typ())
			}
			// fio's own failure line (verify.c), whose offset= is a field
			// of the block it read, no option:
			//qdsweep:fio-words
			return off + int64(p), fmt.Errorf("%w, length %d (requested block: offset=%d, length=%d)", err, len(blk), off, len(buf))
		}
	}
	return off, nil
}

// typ is fio's enum value of the job's kind, as its headers carry it.
func (f *fioVerifier) typ() uint16 {
	if f.v.Kind == VerifyMeta && len(f.v.Pattern) > 0 {
		return 17 // fio's VERIFY_PATTERN: verify_pattern without verify=
	}
	return fioVerifyType[f.v.Kind]
}

// mediaType is the verify type blk's header names (the job's own when
// the kind has no header).
func (f *fioVerifier) mediaType(blk []byte) uint16 {
	if f.v.hdrSize() == 0 || len(blk) < fioHdrLen {
		return f.typ()
	}
	return binary.LittleEndian.Uint16(blk[2:])
}

// checkBlock checks the n-th block, of inc bytes each, of an I/O at off,
// as fio's verify_header and verify_io_u_* do.
func (f *fioVerifier) checkBlock(blk []byte, n, inc int, off int64) error {
	hs := f.v.hdrSize()
	if hs > 0 {
		if len(blk) <= hs {
			return fmt.Errorf("verify: a block of %d bytes holds no data after its header", len(blk))
		}
		if err := f.checkHeader(blk, n, off); err != nil {
			return err
		}
	}
	data := blk[hs:]
	switch f.v.Kind {
	case VerifyCRC32C:
		want, got := binary.LittleEndian.Uint32(blk[fioHdrLen:]), fioCRC32C(data)
		if want != got {
			return fmt.Errorf("crc32c: verify failed (expected crc %08x, received %08x)", want, got)
		}
	case VerifyMD5:
		if got := md5.Sum(data); !bytes.Equal(blk[fioHdrLen:hs], got[:]) {
			return fmt.Errorf("md5: verify failed (expected %x, received %x)", blk[fioHdrLen:hs], got)
		}
	case VerifyPattern, VerifyMeta:
		pat := f.v.Pattern
		if len(pat) == 0 {
			return nil // verify=meta without a pattern: the header only
		}
		mod := (inc*n + hs) % len(pat)
		for i, b := range data {
			if b != pat[mod] {
				return fmt.Errorf("pattern: verify failed (got %02x, wanted %02x at byte %d of the block)", b, pat[mod], hs+i)
			}
			if mod++; mod == len(pat) {
				mod = 0
			}
		}
	}
	return nil
}

// checkHeader checks a block's fio header: magic, length, offset and its
// own crc32c (seed, time and I/O number are not compared, as fio's
// verify_only and read jobs do not).
func (f *fioVerifier) checkHeader(blk []byte, n int, off int64) error {
	magic := binary.LittleEndian.Uint16(blk[0:])
	length := binary.LittleEndian.Uint32(blk[4:])
	hoff := binary.LittleEndian.Uint64(blk[16:])
	switch want := uint64(off + int64(n)*f.interval); {
	case magic != fioHdrMagic:
		return fmt.Errorf("verify: bad magic header %x, wanted %x", magic, fioHdrMagic)
	case int(length) != len(blk):
		return fmt.Errorf("verify: bad header length %d, wanted %d", length, len(blk))
	case hoff != want:
		return fmt.Errorf("verify: bad header offset %d, wanted %d", hoff, want)
	}
	if want, got := binary.LittleEndian.Uint32(blk[fioHdrCRCOff:]), fioCRC32C(blk[:fioHdrCRCOff]); want != got {
		return fmt.Errorf("verify: bad header crc %x, calculated %x", want, got)
	}
	return nil
}

// validateVerify checks fio's verify options against the workload: a
// known kind, a pattern where the kind checks one, and blocks that hold
// their header and some data.
func validateVerify(w Workload, engine string) error {
	v := w.FioVerify
	if v.Kind == "" {
		return nil
	}
	iv := v.Interval
	if iv <= 0 {
		iv = w.MinBS()
	}
	switch {
	case v.hdrSize() == 0 && v.Kind != VerifyPattern:
		return refusef("%s: qdsweep verifies crc32c (crc32c-intel), md5, meta and pattern; use one of them", use(SetVerify, v.Kind))
	case v.Kind == VerifyPattern && len(v.Pattern) == 0:
		return refusef("%s: needs %s (e.g. %s)", use(SetVerify, VerifyPattern), SetVerifyPattern, use(SetVerifyPattern, "0xdeadbeef"))
	case w.Verify:
		return refusef("%s: qdsweep's own offset stamp and fio's verify cannot go together", SetVerify)
	case engine == EngineSim:
		return refusef("%s: the sim engine models a device and keeps no data; use a kernel engine", SetVerify)
	case iv <= int64(v.hdrSize()):
		return refusef("%s: %d bytes does not hold fio's %d-byte %s header and data; use a larger %s or %s",
			SetVerifyInterval, iv, v.hdrSize(), v.Kind, SetVerifyInterval, SetBS)
	case iv > w.MinBS() || w.MinBS()%iv != 0:
		return refusef("%s: %d bytes must divide the smallest block size (%d bytes); use e.g. %s", SetVerifyInterval, iv, w.MinBS(), use(SetVerifyInterval, w.MinBS()))
	}
	return nil
}

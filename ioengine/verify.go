package ioengine

import (
	"encoding/binary"
	"errors"
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

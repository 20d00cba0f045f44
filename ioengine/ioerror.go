package ioengine

import "fmt"

// IOFailure is the error that ends a job on a failed I/O (without
// Workload.ContinueOnError). It unwraps to the syscall.Errno or to a short-transfer error.
type IOFailure struct {
	Op     string // "read" or "write"
	Offset int64  // bytes, offset of the failed I/O
	Errno  string // e.g. "EIO", or "short"
	Count  int64  // failures of this kind so far
	Got    int64  // bytes transferred, for a short transfer
	Want   int64  // bytes requested, for a short transfer
	Err    error
}

func (e *IOFailure) Error() string {
	if e.Errno == "short" {
		return fmt.Sprintf("%s at offset %d: short transfer (%d of %d bytes); %d so far (--continue_on_error to count instead of stopping)",
			e.Op, e.Offset, e.Got, e.Want, e.Count)
	}
	return fmt.Sprintf("%s at offset %d: %v (%s); %d error(s) of this kind (--continue_on_error to count instead of stopping)",
		e.Op, e.Offset, e.Err, e.Errno, e.Count)
}

func (e *IOFailure) Unwrap() error { return e.Err }

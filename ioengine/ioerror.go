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

// Line is e's line, naming the setting that counts errors instead as n
// does.
func (e *IOFailure) Line(n SettingNames) string {
	if e.Errno == "short" {
		return fmt.Sprintf("%s at offset %d: short transfer (%d of %d bytes); %d so far (%s to count instead of stopping)",
			e.Op, e.Offset, e.Got, e.Want, e.Count, n.name(SetContinueOnError))
	}
	return fmt.Sprintf("%s at offset %d: %v (%s); %d error(s) of this kind (%s to count instead of stopping)",
		e.Op, e.Offset, e.Err, e.Errno, e.Count, n.name(SetContinueOnError))
}

// Error is e's line naming Workload.ContinueOnError.
func (e *IOFailure) Error() string { return e.Line(nil) }

func (e *IOFailure) Unwrap() error { return e.Err }

package session

import (
	"errors"
	"fmt"
	"strings"

	"github.com/qdsweep/qdsweep/guard"
)

// UsageError marks an error the user fixes by changing the command line
// (exit 2).
type UsageError struct{ Err error }

func (u UsageError) Error() string { return u.Err.Error() }
func (u UsageError) Unwrap() error { return u.Err }

// Usagef returns a usage error with a one-line message.
func Usagef(format string, a ...any) error {
	return UsageError{fmt.Errorf(format, a...)}
}

// UsageErr marks err as a usage error (nil stays nil).
func UsageErr(err error) error {
	if err == nil {
		return nil
	}
	return UsageError{err}
}

// ErrInterrupted is returned by sessions stopped by a signal (exit 130).
var ErrInterrupted = errors.New("interrupted")

// OneLine folds a multi-line error message onto one line.
func OneLine(err error) string {
	return strings.Join(strings.Fields(err.Error()), " ")
}

// OutErr makes a refusal of an output path a usage error.
func OutErr(err error) error {
	if errors.Is(err, guard.ErrOutput) {
		return UsageErr(err)
	}
	return err
}

// OpenOut opens dir through the one writer; a refusal is a usage error.
func OpenOut(dir string, o guard.OutOptions) (*guard.Out, error) {
	out, err := guard.OpenOut(dir, o)
	return out, OutErr(err)
}

// HardExit registers fn to run if the process is forced to exit and
// returns its removal (the command line's signal handling).
type HardExit func(fn func()) (remove func())

// orNone is h, or one that registers nothing.
func (h HardExit) orNone() HardExit {
	if h == nil {
		return func(func()) func() { return func() {} }
	}
	return h
}

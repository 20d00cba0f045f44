//go:build !linux

package ioengine

import (
	"context"
	"errors"
	"fmt"

	"github.com/qdsweep/qdsweep/guard"
)

// Off Linux qdsweep measures nothing: the engines, the simulator and the
// scratch-file layout answer with ErrUnsupported, while the types of a
// workload and of its results (Workload, Stats, Latency, Interval …) and
// the parsers of sizes and durations work everywhere.

// ErrUnsupported is wrapped by every engine off Linux.
var ErrUnsupported = fmt.Errorf("ioengine: %w (measuring needs Linux)", errors.ErrUnsupported)

// New answers ErrUnsupported off Linux.
func New(name string) (Engine, string, error) { return nil, "", ErrUnsupported }

// Validate accepts the simulator's workloads (it reads no file) and
// answers ErrUnsupported for every other engine off Linux.
func Validate(w Workload, engine string) error {
	if engine == EngineSim {
		return nil
	}
	return ErrUnsupported
}

// Scratch is a scratch file qdsweep would lay out; off Linux it lays out
// nothing.
type Scratch struct{ path string }

// NewScratch returns the scratch file at path.
func NewScratch(path string) *Scratch { return &Scratch{path: path} }

// Create answers ErrUnsupported off Linux.
func (s *Scratch) Create(ctx context.Context, size int64) error { return ErrUnsupported }

// Remove removes nothing off Linux.
func (s *Scratch) Remove() bool { return false }

// Names is false off Linux: nothing is created.
func (s *Scratch) Names() bool { return false }

// Close does nothing off Linux.
func (s *Scratch) Close() {}

// Discard removes nothing off Linux.
func (s *Scratch) Discard() bool { return false }

// Release does nothing off Linux.
func (s *Scratch) Release() {}

// CreateScratch answers ErrUnsupported off Linux.
func CreateScratch(ctx context.Context, path string, size int64) error { return ErrUnsupported }

// ID is zero off Linux.
func (s *Scratch) ID() guard.FileID { return guard.FileID{} }

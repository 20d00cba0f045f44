//go:build !linux

package device

import (
	"errors"
	"fmt"
)

// Off Linux there is no /proc or /sys to read: the readers of the running
// system answer with ErrUnsupported (reading saved figures works anywhere).

// ErrUnsupported is wrapped by the readers of the running system off Linux.
var ErrUnsupported = fmt.Errorf("device and CPU telemetry: %w (measuring needs Linux)", errors.ErrUnsupported)

// SampleCPU answers ErrUnsupported off Linux.
func (r Roots) SampleCPU() (CPUSample, error) { return CPUSample{}, ErrUnsupported }

// Resolve answers ErrUnsupported off Linux.
func Resolve(path string) (*Device, error) { return Roots{}.Resolve(path) }

// Resolve answers ErrUnsupported off Linux.
func (r Roots) Resolve(path string) (*Device, error) { return nil, ErrUnsupported }

// ResolveDevNum answers ErrUnsupported off Linux.
func (r Roots) ResolveDevNum(major, minor uint32) (*Device, error) { return nil, ErrUnsupported }

// FSTypeOf answers ErrUnsupported off Linux.
func (r Roots) FSTypeOf(path string) (FSType, error) { return FSType{}, ErrUnsupported }

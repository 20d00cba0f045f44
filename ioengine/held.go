//go:build linux

package ioengine

// NoLocalTarget is true: the simulator touches no file.
func (e *simEngine) NoLocalTarget() bool { return true }

//go:build !linux

package main_test

// removeStaleBinDirs does nothing where no /proc says which process is
// gone.
func removeStaleBinDirs() {}

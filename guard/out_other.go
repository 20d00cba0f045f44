//go:build !linux

package guard

import "os"

// stackLayer finds no storage stack off Linux, where qdsweep measures
// nothing (loop devices and swap files are Linux's).
func stackLayer(path string, fi os.FileInfo) string { return "" }

// Package device resolves a measured path to its Linux block device and
// reads what the kernel says about it: queue facts from /sys, per-window
// I/O statistics from /proc/diskstats (iostat -x's arithmetic) and host and
// process CPU use. The /proc and /sys roots are injectable (Roots) so tests
// can read fixtures.
package device

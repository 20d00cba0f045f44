//go:build linux && !386 && !arm && !mips && !mipsle

// Command netvol serves an emulated network volume (package netvoltest) at
// a mount point until it is sent SIGINT or SIGTERM, then unmounts it: one
// read-only file, "vol", whose every read is answered after --delay,
// optionally capped at --iops with a token bucket of --burst. The
// benchmark (bench/sweep-settle-vs-fixed.sh -n) puts a loop device over
// it. Run as root (it mounts with mount(2)).
//
//	netvol [--delay=1ms] [--size-mib=1024] [--iops=0] [--burst=100ms] MOUNTPOINT
package main

import (
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/qdsweep/qdsweep/internal/netvoltest"
)

func main() {
	delay := flag.Duration("delay", time.Millisecond, "each read is answered this long after it is dispatched")
	sizeMiB := flag.Int64("size-mib", 1024, "size of the volume's file, MiB")
	iops := flag.Float64("iops", 0, "reads dispatched per second at most (0: no cap)")
	burst := flag.Duration("burst", 100*time.Millisecond, "with --iops: the token bucket's depth, as time at the cap")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "netvol: name one mount point: netvol [flags] MOUNTPOINT")
		os.Exit(2)
	}
	cfg := netvoltest.Config{Size: *sizeMiB << 20, Delay: *delay, IOPS: *iops, Burst: *burst}
	if err := cfg.Validate(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	v, err := netvoltest.Mount(flag.Arg(0), cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM)
	fmt.Println("ready", v.File)
	<-sig
	if err := v.Close(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "netvol: served %d reads\n", v.Served())
}

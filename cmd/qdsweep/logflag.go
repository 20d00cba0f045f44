package main

import (
	"time"

	"github.com/qdsweep/qdsweep/ioengine"
	"github.com/urfave/cli/v2"
)

// logIntervalFlag is --log-interval, shared by sweep and run.
func logIntervalFlag() cli.Flag {
	return &cli.StringFlag{Name: "log-interval", Value: ioengine.DefaultSeriesInterval.String(),
		Usage: "record IOPS, MiB/s, mean and p99 latency and in-flight I/Os every this long (results-series.csv); 0 turns it off"}
}

// logIntervalFromFlags reads --log-interval: 0 means off (returned as -1,
// sweep.Config's "none").
func logIntervalFromFlags(c *cli.Context) (time.Duration, error) {
	d, err := durationFlag(c, "log-interval", ioengine.DefaultSeriesInterval)
	if err != nil {
		return 0, err
	}
	switch {
	case d == 0:
		return -1, nil
	case d < 10*time.Millisecond:
		return 0, usagef("--log-interval: %v is too short to sample; use e.g. --log-interval=250ms, or 0 to turn it off", d)
	}
	return d, nil
}

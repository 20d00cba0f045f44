package main

import (
	"github.com/qdsweep/qdsweep/guard"
	"github.com/urfave/cli/v2"
)

// writeGuardFlags are the flags that permit writing over existing data.
func writeGuardFlags() []cli.Flag {
	return []cli.Flag{
		&cli.BoolFlag{Name: "allow-write", Usage: "allow write workloads on an existing regular file (its contents are overwritten)"},
		&cli.BoolFlag{Name: "allow-write-device", Usage: "allow write workloads on a blank, unmounted block device or partition (its contents are destroyed)"},
		&cli.StringFlag{Name: "destroy-data", Usage: "name the target block device again (--destroy-data=/dev/X) to overwrite its partitions or data; needs --allow-write-device, never overrides a mounted or busy device; through fio servers name the target on every host (--destroy-data=host1:/dev/X,host2:/dev/X), needed for any write there"},
	}
}

// writeGuardFromFlags reads the write permissions. The files qdsweep lays
// out are added to Permit.Ours by identity once they exist.
func writeGuardFromFlags(c *cli.Context) guard.Permit {
	return guard.Permit{
		AllowWrite:       c.Bool("allow-write"),
		AllowWriteDevice: c.Bool("allow-write-device"),
		DestroyData:      c.String("destroy-data"),
	}
}

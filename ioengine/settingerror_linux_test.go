//go:build linux

package ioengine_test

import (
	"errors"
	"fmt"
	"strings"

	"github.com/qdsweep/qdsweep/ioengine"
)

// A library caller reads a refusal in Workload's own terms; a command
// line names each setting as its own flags.
func ExampleSettingError_Settings() {
	w := ioengine.Workload{Filename: "/dev/null", RW: ioengine.RandRead, BS: 4096, IODepth: 0, NumJobs: 1}
	err := ioengine.Validate(w, ioengine.EngineSim)
	var se *ioengine.SettingError
	if errors.As(err, &se) {
		fmt.Println(errors.Is(err, ioengine.ErrBadWorkload))
		fmt.Println(se.Settings())
		fmt.Println(se)
		fmt.Println(se.Line(func(s ioengine.Setting) string {
			return "-" + strings.ToLower(strings.TrimPrefix(s.String(), "Workload."))
		}))
	}
	// Output:
	// true
	// [Workload.IODepth]
	// Workload.IODepth: 0 is out of range; use 1..65536, e.g. Workload.IODepth=32
	// -iodepth: 0 is out of range; use 1..65536, e.g. -iodepth=32
}

// The fix of a refusal names settings with the values to use.
func ExampleSettingError_Uses() {
	w := ioengine.Workload{Filename: "/dev/null", RW: ioengine.RandRead, BS: 4096, IODepth: 8, NumJobs: 2}
	err := ioengine.Validate(w, ioengine.EnginePsync)
	var se *ioengine.SettingError
	if errors.As(err, &se) {
		for _, u := range se.Uses() {
			fmt.Println(u.Setting, u.Value)
		}
	}
	// Output:
	// Workload.NumJobs 16
	// engine io_uring
}

// Every setting an error may name, each with its Go name.
func ExampleSettings() {
	all := ioengine.Settings()
	fmt.Println(len(all), all[0], all[len(all)-1])
	// Output:
	// 42 engine Control.Runtime
}

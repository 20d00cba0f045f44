package report

import (
	"fmt"
	"github.com/qdsweep/qdsweep/fio"
	"strconv"

	"github.com/qdsweep/qdsweep/littleslaw"
)

// CaveatText is one caveat in words, as it follows an answer it weakens.
func CaveatText(k littleslaw.CaveatKind) string {
	switch k {
	case littleslaw.CaveatUnsaturated:
		return "the sweep never saturated, so depths read from it are lower bounds"
	case littleslaw.CaveatContended:
		return "other I/O shared the device during the sweep, so the figures are not the workload's alone"
	case littleslaw.CaveatNotSteady:
		return "some steps' IOPS were still drifting when they ended (raise " + fio.Flag(fio.OptRuntime) + ")"
	case littleslaw.CaveatInconclusive:
		return "the diagnosis could not tell what limits this curve"
	case littleslaw.CaveatCPUBound:
		return "the submitter ran out of CPU, so the curve shows the host's limit, not the device's"
	case littleslaw.CaveatCache:
		return "I/Os were served without device I/O, so the figures are not the device's"
	}
	return string(k)
}

// SettingValueText is a setting's value as a reader should take it:
// "at least 256" when the sweep never saturated.
func SettingValueText(s littleslaw.Setting) string {
	v := settingValue(s)
	if _, err := strconv.Atoi(v); err == nil && s.LowerBound {
		return "at least " + v
	}
	return v
}

// settingBoundText says why a setting is a lower bound ("" when it is not).
func settingBoundText(s littleslaw.Setting) string {
	if !s.LowerBound {
		return ""
	}
	return fmt.Sprintf("at least %d in flight are useful: the sweep never saturated, so its deepest QD %d is a lower bound", s.SaturationQD, s.SaturationQD)
}

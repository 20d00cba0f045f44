package ioengine

import (
	"fmt"
	"strconv"

	"github.com/qdsweep/qdsweep/guard"
)

// Setting is a setting of a Workload (or of the engine, or of a run's
// Control) that an error speaks of: the one it refuses and the ones its fix
// names. A SettingError's Line names each as its caller's option table
// does; Error names it as Workload's field (Setting.String).
type Setting int8

// The settings a SettingError names.
const (
	SetEngine             Setting = iota + 1 // the engine Validate and New take
	SetFilename                              // Filename, Files, JobFiles
	SetSize                                  // Size
	SetOffset                                // Offset
	SetOffsetIncrement                       // OffsetIncrement
	SetRW                                    // RW (and Shape.RandomEvery, its suffix)
	SetRWMixRead                             // RWMixRead
	SetBS                                    // BS
	SetBSSplit                               // Shape.BSSplit
	SetBSRange                               // Shape.BSRange
	SetBlockAlign                            // Shape.Align
	SetPercentageRandom                      // Shape.Sequential, as the percent of random offsets
	SetRandomDistribution                    // Shape.Dist
	SetIODepth                               // IODepth
	SetNumJobs                               // NumJobs
	SetDirect                                // Direct
	SetContinueOnError                       // ContinueOnError
	SetRateIOPS                              // RateIOPS
	SetRateProcess                           // Poisson
	SetFsync                                 // SyncEvery
	SetFdatasync                             // SyncEvery with SyncData (named by SyncData)
	SetSync                                  // OpenSync
	SetThinkTime                             // Think.Time
	SetThinkTimeSpin                         // Think.Spin
	SetThinkTimeBlocks                       // Think.Blocks
	SetThinkTimeIOTime                       // Think.IOTime
	SetRateMin                               // RateMin.Bytes
	SetRateIOPSMin                           // RateMin.IOPS
	SetRateCycle                             // RateMin.Cycle
	SetLatencyTarget                         // LatTarget.Target
	SetLatencyWindow                         // LatTarget.Window
	SetLatencyPercentile                     // LatTarget.Percentile
	SetFlow                                  // Flow
	SetVerify                                // FioVerify.Kind
	SetVerifyPattern                         // FioVerify.Pattern
	SetVerifyInterval                        // FioVerify.Interval
	SetZoneSize                              // Zones.Size
	SetZoneRange                             // Zones.Range
	SetZoneSkip                              // Zones.Skip
	SetPrio                                  // Prio.Job
	SetCmdPrio                               // Prio.Cmd
	SetRuntime                               // Control.Runtime
)

// Settings lists every Setting.
func Settings() []Setting {
	out := make([]Setting, 0, SetRuntime)
	for s := SetEngine; s <= SetRuntime; s++ {
		out = append(out, s)
	}
	return out
}

// settingFields are the settings as Go names them: Workload's fields, the
// engine argument and Control's field.
var settingFields = [...]string{
	SetEngine: "engine", SetFilename: "Workload.Filename", SetSize: "Workload.Size", SetOffset: "Workload.Offset",
	SetOffsetIncrement: "Workload.OffsetIncrement", SetRW: "Workload.RW", SetRWMixRead: "Workload.RWMixRead",
	SetBS: "Workload.BS", SetBSSplit: "Workload.Shape.BSSplit", SetBSRange: "Workload.Shape.BSRange",
	SetBlockAlign: "Workload.Shape.Align", SetPercentageRandom: "Workload.Shape.Sequential",
	SetRandomDistribution: "Workload.Shape.Dist", SetIODepth: "Workload.IODepth", SetNumJobs: "Workload.NumJobs",
	SetDirect: "Workload.Direct", SetContinueOnError: "Workload.ContinueOnError", SetRateIOPS: "Workload.RateIOPS",
	SetRateProcess: "Workload.Poisson", SetFsync: "Workload.SyncEvery", SetFdatasync: "Workload.SyncData",
	SetSync: "Workload.OpenSync", SetThinkTime: "Workload.Think.Time", SetThinkTimeSpin: "Workload.Think.Spin",
	SetThinkTimeBlocks: "Workload.Think.Blocks", SetThinkTimeIOTime: "Workload.Think.IOTime",
	SetRateMin: "Workload.RateMin.Bytes", SetRateIOPSMin: "Workload.RateMin.IOPS", SetRateCycle: "Workload.RateMin.Cycle",
	SetLatencyTarget: "Workload.LatTarget.Target", SetLatencyWindow: "Workload.LatTarget.Window",
	SetLatencyPercentile: "Workload.LatTarget.Percentile", SetFlow: "Workload.Flow", SetVerify: "Workload.FioVerify.Kind",
	SetVerifyPattern: "Workload.FioVerify.Pattern", SetVerifyInterval: "Workload.FioVerify.Interval",
	SetZoneSize: "Workload.Zones.Size", SetZoneRange: "Workload.Zones.Range", SetZoneSkip: "Workload.Zones.Skip",
	SetPrio: "Workload.Prio.Job", SetCmdPrio: "Workload.Prio.Cmd",
	SetRuntime: "Control.Runtime",
}

// String is s as Go names it: "Workload.IODepth".
func (s Setting) String() string {
	if s > 0 && int(s) < len(settingFields) {
		return settingFields[s]
	}
	return "Setting(" + strconv.Itoa(int(s)) + ")"
}

// Use is a setting with a value, as an error's fix gives it (iodepth=32).
type Use struct {
	Setting Setting
	Value   string // as the user would give it: "32", "4k", "io_uring"
}

// use is s with value v, as fmt prints v.
func use(s Setting, v any) Use { return Use{Setting: s, Value: fmt.Sprint(v)} }

// SettingNames spells each Setting as its caller's option table does
// ("--iodepth"); a nil one, or "" for a setting, leaves Go's name
// (Setting.String).
type SettingNames func(Setting) string

func (n SettingNames) name(s Setting) string {
	if n != nil {
		if v := n(s); v != "" {
			return v
		}
	}
	return s.String()
}

// SettingError is an error that names settings: a refusal of a workload
// (Validate's) or a failure whose fix is a setting. Its words hold no
// option's name: each Setting and Use among its arguments is named when
// the line is made, by Line's names or, in Error, by Go's.
type SettingError struct {
	format string
	args   []any // values; a Setting or a Use is named by Line
	// Err is the error under it, if any (its text is among args).
	Err error
	// Refused marks a refusal of the workload: the error then matches
	// ErrBadWorkload.
	Refused bool
}

// refusef is a refusal of the workload (it matches ErrBadWorkload) in
// format's words; each Setting and Use among a is named by the line's
// caller.
func refusef(format string, a ...any) error {
	return &SettingError{format: format, args: a, Refused: true}
}

// settingErrf is a failure in format's words, over err (nil for none;
// a's %v of it where its words are), its fix naming the Settings and Uses
// among a.
func settingErrf(err error, format string, a ...any) error {
	return &SettingError{format: format, args: a, Err: err}
}

// Settings are the settings e names, in the order it names them: the one
// it refuses first.
func (e *SettingError) Settings() []Setting {
	var out []Setting
	seen := map[Setting]bool{}
	for _, a := range e.args {
		s, ok := a.(Setting)
		if u, isUse := a.(Use); isUse {
			s, ok = u.Setting, true
		}
		if ok && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// Uses are the settings with values e's fix names (iodepth=32).
func (e *SettingError) Uses() []Use {
	var out []Use
	for _, a := range e.args {
		if u, ok := a.(Use); ok {
			out = append(out, u)
		}
	}
	return out
}

// Line is e's one line, naming each setting as n does and a setting with
// a value as name=value.
func (e *SettingError) Line(n SettingNames) string {
	args := make([]any, len(e.args))
	for i, a := range e.args {
		switch v := a.(type) {
		case Setting:
			args[i] = n.name(v)
		case Use:
			args[i] = n.name(v.Setting) + "=" + v.Value
		default:
			args[i] = a
		}
	}
	return fmt.Sprintf(e.format, args...)
}

// Error is e's line with Go's names of the settings (Workload.IODepth).
func (e *SettingError) Error() string { return e.Line(nil) }

// Unwrap is the error under e.
func (e *SettingError) Unwrap() error { return e.Err }

// Is matches ErrBadWorkload for a refusal.
func (e *SettingError) Is(target error) bool { return e.Refused && target == ErrBadWorkload }

// guardSettings are the write guard's settings as the Workload's.
var guardSettings = map[guard.Setting]Setting{
	guard.SettingFile: SetFilename, guard.SettingSize: SetSize, guard.SettingOffset: SetOffset,
	guard.SettingDirect: SetDirect,
}

// guardError is an error of the write guard's (guard.Hold's refusals and
// failures) met opening a run's target: its Line names the settings its
// fix names as Line's names spell the Workload's (--direct=0); Error is
// the guard's own words.
type guardError struct{ Err error }

// guardErr is err, when the guard's, as a guardError.
func guardErr(err error) error {
	if err == nil {
		return nil
	}
	return &guardError{Err: err}
}

// Line is e's one line, each guard setting its fix names spelled as n
// spells the Workload's (the guard's words where n names none).
func (e *guardError) Line(n SettingNames) string { return GuardLine(e.Err, n) }

// GuardLine is err's line: when err is the write guard's own (a refusal,
// or a failure whose fix names settings, as guard.Hold's open refused
// O_DIRECT), each guard setting its fix names spelled as n spells the
// Workload's (--direct=0); any other error's line as it is.
func GuardLine(err error, n SettingNames) string {
	if n == nil {
		return err.Error()
	}
	return guard.Named(err, func(s guard.Setting) string {
		if ws, ok := guardSettings[s]; ok {
			return n(ws)
		}
		return ""
	}).Error()
}

// Error is the guard's line in its own words.
func (e *guardError) Error() string { return e.Err.Error() }

// Unwrap is the guard's error.
func (e *guardError) Unwrap() error { return e.Err }

package ioengine

import (
	"fmt"
	"strconv"
	"strings"
)

// UringFix is what a UringError asks of the user.
type UringFix int8

// The fixes a UringError names.
const (
	UringFixDrop        UringFix = iota + 1 // drop the setting
	UringFixDepth                           // use queue depth N, or drop the setting
	UringFixLimit                           // raise the limit (Cause names it), or drop the setting
	UringFixDirect                          // add O_DIRECT, or drop the setting
	UringFixEngine                          // use the io_uring engine (this run's is Engine), or drop the setting
	UringFixCPU                             // name a CPU this process may use, e.g. N
	UringFixOtherCPU                        // name another CPU
	UringFixBool                            // use 0 or 1
	UringFixCPUFromZero                     // a CPU is numbered from 0
	UringFixNone                            // none: the ring was refused with these settings (Also)
)

// UringFixes lists every UringFix.
func UringFixes() []UringFix {
	return []UringFix{UringFixDrop, UringFixDepth, UringFixLimit, UringFixDirect, UringFixEngine, UringFixCPU,
		UringFixOtherCPU, UringFixBool, UringFixCPUFromZero, UringFixNone}
}

// UringError is a refusal of one of the io_uring settings: which, why and
// the fix, with no option's name. Its line (Line) names the options by the
// names its caller's option table gives them; Error names them by the
// kernel's names (UringSetting.String).
type UringError struct {
	Setting   UringSetting
	Value     int  // the value given
	ShowValue bool // the line names the value with the setting (name=value)
	// Cause is why, in words with no option's name ("IORING_REGISTER_FILES:
	// EMFILE (RLIMIT_NOFILE?)"); Err is the error under it, if any.
	Cause string
	Err   error
	Fix   UringFix
	N     int            // the number the fix names (a queue depth, a CPU)
	Also  []UringSetting // UringFixNone: every setting the refused ring had
	// Engine is the run's engine, for UringFixEngine.
	Engine string
	// Refused marks a Validate refusal: the error then matches ErrBadWorkload.
	Refused bool
}

// UringNames names what a UringError's line speaks of, as its caller's
// option table spells them: each setting, and the queue depth, engine and
// O_DIRECT options its fixes name. A nil or empty field falls back to the
// kernel's names and plain words.
type UringNames struct {
	Setting                 func(UringSetting) string
	IODepth, Engine, Direct string // e.g. --iodepth, --ioengine, --direct
}

func (n UringNames) setting(s UringSetting) string {
	if n.Setting != nil {
		if v := n.Setting(s); v != "" {
			return v
		}
	}
	return s.String()
}

func or(s, alt string) string {
	if s == "" {
		return alt
	}
	return s
}

// Line is e's one line, naming each setting and option as n does.
func (e *UringError) Line(n UringNames) string {
	name := n.setting(e.Setting)
	head := name
	if e.ShowValue {
		head += "=" + strconv.Itoa(e.Value)
	}
	switch e.Fix {
	case UringFixDepth:
		return fmt.Sprintf("%s: %s; use %s=%d or drop %s", head, e.Cause, or(n.IODepth, "queue depth"), e.N, name)
	case UringFixLimit:
		return fmt.Sprintf("%s: %s; raise the limit or drop %s", head, e.Cause, name)
	case UringFixDirect:
		return fmt.Sprintf("%s: %s; add %s=1 or drop %s", head, e.Cause, or(n.Direct, "O_DIRECT"), name)
	case UringFixEngine:
		return fmt.Sprintf("%s is an option of the io_uring engine, and this run's engine is %s; use %s=io_uring where io_uring is available, or drop %s",
			head, e.Engine, or(n.Engine, "engine"), name)
	case UringFixCPU:
		return fmt.Sprintf("%s: %s; name one of them, e.g. %s=%d", head, e.Cause, name, e.N)
	case UringFixOtherCPU:
		return fmt.Sprintf("%s: %s; name another CPU", head, e.Cause)
	case UringFixBool:
		return head + ": use 0 or 1"
	case UringFixCPUFromZero:
		return fmt.Sprintf("%s: a CPU is numbered from 0; use e.g. %s=1", head, name)
	case UringFixNone:
		names := make([]string, len(e.Also))
		for i, s := range e.Also {
			names[i] = n.setting(s)
		}
		return fmt.Sprintf("%s (with %s)", e.Cause, strings.Join(names, " "))
	}
	return fmt.Sprintf("%s: %s; drop %s", head, e.Cause, name)
}

// Error is e's line with the kernel's names of the settings.
func (e *UringError) Error() string { return e.Line(UringNames{}) }

// Unwrap is the error under e.
func (e *UringError) Unwrap() error { return e.Err }

// Is matches ErrBadWorkload for a Validate refusal.
func (e *UringError) Is(target error) bool { return e.Refused && target == ErrBadWorkload }

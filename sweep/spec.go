package sweep

import (
	"errors"
	"fmt"
	"github.com/qdsweep/qdsweep/fio"
	"math"
	"strconv"
	"strings"

	"github.com/qdsweep/qdsweep/ioengine"
)

// ErrBadSpec is wrapped by every plan-parsing error.
var ErrBadSpec = errors.New("bad plan spec")

// specError is a plan-spec error: its message is the user's words, and
// it is ErrBadSpec for errors.Is.
type specError struct{ msg string }

func (e *specError) Error() string        { return e.msg }
func (e *specError) Is(target error) bool { return target == ErrBadSpec }

// specErr formats a specError; %w is formatted as %v.
func specErr(format string, a ...any) error {
	return &specError{fmt.Sprintf(strings.ReplaceAll(format, "%w", "%v"), a...)}
}

// maxSpecValue bounds iodepth and numjobs values (a sanity limit, not a device limit).
const maxSpecValue = 1 << 20

// ParseIntSpec parses an iodepth or numjobs specification:
//
//	"8"          one value
//	"1,2,4,8"    a list (strictly ascending)
//	"1:256"      a geometric range doubling from 1 to 256 (256 included
//	             when reached, else the last value ≤ 256)
//	"1:256:x4"   the same, multiplying by 4
//
// Values are ≥ 1 and ≤ 1,048,576. Errors wrap ErrBadSpec and say what is wrong.
func ParseIntSpec(s string) ([]int, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return nil, specErr("empty (use e.g. 1:256, 1,2,4,8 or 32)")
	}
	if strings.Contains(t, ":") {
		return parseRange(t)
	}
	var out []int
	for _, f := range strings.Split(t, ",") {
		v, err := parseSpecInt(f)
		if err != nil {
			if lo, hi, ok := strings.Cut(strings.TrimSpace(f), "-"); ok && lo != "" && hi != "" {
				if _, e1 := strconv.Atoi(lo); e1 == nil {
					if _, e2 := strconv.Atoi(hi); e2 == nil {
						return nil, specErr("%q is not a value: a range is written with a colon, e.g. %s:%s (doubling from %s to %s)", f, lo, hi, lo, hi)
					}
				}
			}
			return nil, specErr("list %q: %w", s, err)
		}
		if len(out) > 0 && v <= out[len(out)-1] {
			return nil, specErr("list %q is not ascending at %d (write values in increasing order)", s, v)
		}
		out = append(out, v)
	}
	return out, nil
}

func parseRange(s string) ([]int, error) {
	parts := strings.Split(s, ":")
	if len(parts) > 3 {
		return nil, specErr("range %q has too many ':' (use lo:hi or lo:hi:xN)", s)
	}
	lo, err := parseSpecInt(parts[0])
	if err != nil {
		return nil, specErr("range %q start: %w", s, err)
	}
	hi, err := parseSpecInt(parts[1])
	if err != nil {
		return nil, specErr("range %q end: %w", s, err)
	}
	if hi < lo {
		return nil, specErr("range %q is descending (end %d < start %d)", s, hi, lo)
	}
	factor := 2
	if len(parts) == 3 {
		f := strings.TrimSpace(parts[2])
		if !strings.HasPrefix(f, "x") && !strings.HasPrefix(f, "*") {
			return nil, specErr("range %q step %q must be a factor like x2 or x4", s, f)
		}
		factor, err = strconv.Atoi(f[1:])
		if err != nil || factor < 2 || factor > 1024 {
			return nil, specErr("range %q factor %q must be an integer 2..1024", s, f[1:])
		}
	}
	var out []int
	for v := lo; v <= hi; v *= factor {
		out = append(out, v)
	}
	return out, nil
}

func parseSpecInt(f string) (int, error) {
	f = strings.TrimSpace(f)
	if f == "" {
		return 0, errors.New("empty value")
	}
	v, err := strconv.Atoi(f)
	if err != nil {
		return 0, fmt.Errorf("%q is not a whole number", f)
	}
	if v < 1 || v > maxSpecValue {
		return 0, fmt.Errorf("%d is out of range 1..%d", v, maxSpecValue)
	}
	return v, nil
}

// ParseSizeList parses a comma-separated list of block sizes with fio's
// suffixes ("4k,16k,64k,1m"), each as fio reads a bs (fio.ParseSize under
// kb_base=1024), into bytes. Sizes are > 0, unique, kept in the order given.
func ParseSizeList(s string) ([]int64, error) {
	if strings.TrimSpace(s) == "" {
		return nil, specErr("empty block size list (use e.g. 4k or 4k,64k,1m)")
	}
	var out []int64
	seen := map[int64]bool{}
	for _, f := range strings.Split(s, ",") {
		v, err := fio.ParseSize(f, fio.KBBase) // as run reads bs
		if err != nil {
			return nil, specErr("block size list %q: %w", s, err)
		}
		if err := fio.CheckRange(fio.OptBS, strconv.FormatInt(v, 10)); err != nil {
			return nil, specErr("block size list %q: %w", s, err)
		}
		if seen[v] {
			return nil, specErr("block size list %q repeats %q", s, strings.TrimSpace(f))
		}
		seen[v] = true
		out = append(out, v)
	}
	return out, nil
}

// ParseRWList parses a comma-separated list of fio rw patterns
// ("read,randread"). Patterns are unique, kept in the order given.
func ParseRWList(s string) ([]ioengine.RW, error) {
	if strings.TrimSpace(s) == "" {
		return nil, specErr("empty rw list (use e.g. randread or read,randread)")
	}
	var out []ioengine.RW
	seen := map[ioengine.RW]bool{}
	for _, f := range strings.Split(s, ",") {
		f = strings.ToLower(strings.TrimSpace(f))
		if err := fio.CheckAllowed(fio.OptRW, f); err != nil {
			return nil, specErr("rw list %q: %w", s, err)
		}
		name, _ := fio.RWValue(f)
		rw := ioengine.RW(name)
		if !rw.Valid() {
			return nil, specErr("rw list %q: fio runs %s, a sweep only %s", s, f, rwNames())
		}
		if seen[rw] {
			return nil, specErr("rw list %q repeats %q", s, rw)
		}
		seen[rw] = true
		out = append(out, rw)
	}
	return out, nil
}

// DefaultRateFractions are the offered loads of an open-loop sweep given
// none: shares of the closed-loop IOPS at its depth, one past it.
var DefaultRateFractions = []float64{0.1, 0.25, 0.5, 0.75, 0.9, 1.1}

// ParseRateList parses the offered loads of an open-loop sweep: a
// comma-separated list of I/Os per second (2000, 2k) and shares of the
// closed-loop IOPS (50%), each kind ascending. It returns the rates and
// the fractions.
func ParseRateList(s string) (rates, fractions []float64, err error) {
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			return nil, nil, specErr("empty item in %q", s)
		}
		if pct, ok := strings.CutSuffix(f, "%"); ok {
			v, err := strconv.ParseFloat(strings.TrimSpace(pct), 64)
			if err != nil || !(v > 0) || math.IsInf(v, 0) {
				return nil, nil, specErr("%q is not a share of the closed-loop IOPS; use e.g. 50%%", f)
			}
			fractions = append(fractions, v/100)
			continue
		}
		mult := 1.0
		switch {
		case strings.HasSuffix(f, "k"), strings.HasSuffix(f, "K"):
			mult, f = 1e3, f[:len(f)-1]
		case strings.HasSuffix(f, "m"), strings.HasSuffix(f, "M"):
			mult, f = 1e6, f[:len(f)-1]
		}
		v, err := strconv.ParseFloat(f, 64)
		if err != nil || !(v > 0) || math.IsInf(v, 0) {
			return nil, nil, specErr("%q is not I/Os per second; use e.g. 2000, 2k or 50%%", f)
		}
		rates = append(rates, v*mult)
	}
	return rates, fractions, nil
}

// RateFractionsText renders fractions as --rate_iops's percentages
// (10%,25%,50%).
func RateFractionsText(fs []float64) string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = strconv.FormatFloat(math.Round(f*1e4)/100, 'f', -1, 64) + "%"
	}
	return strings.Join(out, ",")
}

// rwNames are the patterns the engines run (ioengine.RWs), for an error.
func rwNames() string {
	names := make([]string, len(ioengine.RWs))
	for i, r := range ioengine.RWs {
		names[i] = string(r)
	}
	return strings.Join(names, ", ")
}

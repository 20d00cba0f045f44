package sweep

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/qdsweep/qdsweep/ioengine"
)

// ErrBadSpec is wrapped by every plan-parsing error.
var ErrBadSpec = errors.New("bad plan spec")

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
		return nil, fmt.Errorf("%w: empty (use e.g. 1:256, 1,2,4,8 or 32)", ErrBadSpec)
	}
	if strings.Contains(t, ":") {
		return parseRange(t)
	}
	var out []int
	for _, f := range strings.Split(t, ",") {
		v, err := parseSpecInt(f)
		if err != nil {
			return nil, fmt.Errorf("%w: list %q: %w", ErrBadSpec, s, err)
		}
		if len(out) > 0 && v <= out[len(out)-1] {
			return nil, fmt.Errorf("%w: list %q is not ascending at %d (write values in increasing order)", ErrBadSpec, s, v)
		}
		out = append(out, v)
	}
	return out, nil
}

func parseRange(s string) ([]int, error) {
	parts := strings.Split(s, ":")
	if len(parts) > 3 {
		return nil, fmt.Errorf("%w: range %q has too many ':' (use lo:hi or lo:hi:xN)", ErrBadSpec, s)
	}
	lo, err := parseSpecInt(parts[0])
	if err != nil {
		return nil, fmt.Errorf("%w: range %q start: %w", ErrBadSpec, s, err)
	}
	hi, err := parseSpecInt(parts[1])
	if err != nil {
		return nil, fmt.Errorf("%w: range %q end: %w", ErrBadSpec, s, err)
	}
	if hi < lo {
		return nil, fmt.Errorf("%w: range %q is descending (end %d < start %d)", ErrBadSpec, s, hi, lo)
	}
	factor := 2
	if len(parts) == 3 {
		f := strings.TrimSpace(parts[2])
		if !strings.HasPrefix(f, "x") && !strings.HasPrefix(f, "*") {
			return nil, fmt.Errorf("%w: range %q step %q must be a factor like x2 or x4", ErrBadSpec, s, f)
		}
		factor, err = strconv.Atoi(f[1:])
		if err != nil || factor < 2 || factor > 1024 {
			return nil, fmt.Errorf("%w: range %q factor %q must be an integer 2..1024", ErrBadSpec, s, f[1:])
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
// suffixes ("4k,16k,64k,1m") into bytes. Sizes are > 0, unique, kept in the order given.
func ParseSizeList(s string) ([]int64, error) {
	if strings.TrimSpace(s) == "" {
		return nil, fmt.Errorf("%w: empty block size list (use e.g. 4k or 4k,64k,1m)", ErrBadSpec)
	}
	var out []int64
	seen := map[int64]bool{}
	for _, f := range strings.Split(s, ",") {
		v, err := ioengine.ParseSize(f)
		if err != nil {
			return nil, fmt.Errorf("%w: block size list %q: %w", ErrBadSpec, s, err)
		}
		if v <= 0 {
			return nil, fmt.Errorf("%w: block size list %q: %q must be > 0", ErrBadSpec, s, strings.TrimSpace(f))
		}
		if seen[v] {
			return nil, fmt.Errorf("%w: block size list %q repeats %q", ErrBadSpec, s, strings.TrimSpace(f))
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
		return nil, fmt.Errorf("%w: empty rw list (use e.g. randread or read,randread)", ErrBadSpec)
	}
	var out []ioengine.RW
	seen := map[ioengine.RW]bool{}
	for _, f := range strings.Split(s, ",") {
		rw := ioengine.RW(strings.ToLower(strings.TrimSpace(f)))
		switch rw {
		case ioengine.Read, ioengine.Write, ioengine.RandRead, ioengine.RandWrite, ioengine.ReadWrite, ioengine.RandRW:
		case "readwrite":
			rw = ioengine.ReadWrite
		default:
			return nil, fmt.Errorf("%w: rw list %q: unknown pattern %q (use read, write, randread, randwrite, rw, randrw)", ErrBadSpec, s, strings.TrimSpace(f))
		}
		if seen[rw] {
			return nil, fmt.Errorf("%w: rw list %q repeats %q", ErrBadSpec, s, rw)
		}
		seen[rw] = true
		out = append(out, rw)
	}
	return out, nil
}

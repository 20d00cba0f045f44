package fio

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/qdsweep/qdsweep/units"
)

// KBBase is fio's kb_base: what a kilo is when fio reads a size. With
// fio's default 1024, k, m, g, t and p are powers of 1024 and the IEC
// spellings KiB, MiB, GiB, TiB and PiB are powers of 1000 (fio's
// documented quirk, kept for old job files: --size=1MiB is 1,000,000
// bytes); with 1000 the two swap, so KiB is 1024 again.
const KBBase = 1024

// sizePowers are fio's size suffixes (lower-cased) and the power of the
// kilo they stand for; iec says the suffix is an IEC spelling, whose kilo
// is the other base.
var sizePowers = map[string]struct {
	pow int
	iec bool
}{
	"": {0, false}, "b": {0, false},
	"k": {1, false}, "kb": {1, false}, "kib": {1, true},
	"m": {2, false}, "mb": {2, false}, "mib": {2, true},
	"g": {3, false}, "gb": {3, false}, "gib": {3, true},
	"t": {4, false}, "tb": {4, false}, "tib": {4, true},
	"p": {5, false}, "pb": {5, false}, "pib": {5, true},
}

// suffixPower is a size suffix's power of the kilo and whether it is an
// IEC spelling, as fio 3.33's get_mult_bytes matches it, case aside: by
// its start, so 64Ki and 64kB are 64k and 1Mi is 1m, and an IEC spelling
// by its first three letters (KiB, kib); ok is false for any other
// letters (4q, which fio reads as 4 bytes, is refused).
type suffix struct {
	pow int
	iec bool
}

func suffixPower(raw string) (suffix, bool) {
	s := strings.ToLower(strings.TrimSpace(raw))
	if p, ok := sizePowers[s]; ok {
		return suffix{p.pow, p.iec}, true
	}
	if s == "" || strings.IndexFunc(s, func(r rune) bool { return r < 'a' || r > 'z' }) >= 0 {
		return suffix{}, false
	}
	if len(s) >= 3 {
		if p, ok := sizePowers[s[:3]]; ok && p.iec {
			return suffix{p.pow, true}, true
		}
	}
	if p, ok := sizePowers[s[:1]]; ok && p.pow > 0 {
		return suffix{p.pow, false}, true
	}
	return suffix{}, false
}

// ParseSize reads a size as fio reads it under kb_base kbBase (1024 or
// 1000; anything else is taken as 1024): "4k" is 4,096 bytes and "4KiB"
// 4,000 under 1024, the other way round under 1000. A fraction
// ("1.5g") is taken down to whole bytes.
func ParseSize(s string, kbBase int) (int64, error) {
	t := strings.TrimSpace(s)
	if hex, ok := strings.CutPrefix(strings.ToLower(t), "0x"); ok {
		// fio reads a number as C's strtoll in base 0 does: 0x1000 is 4096
		// (a unit after it fio would not apply: refused below as hex).
		if v, err := strconv.ParseInt(hex, 16, 64); err == nil && v >= 0 {
			return v, nil
		}
	}
	i := 0
	for i < len(t) && (t[i] >= '0' && t[i] <= '9' || t[i] == '.') {
		i++
	}
	p, ok := suffixPower(t[i:])
	if !ok || i == 0 {
		_, err := units.ParseSize(s) // says what is wrong with it
		if err == nil {
			err = fmt.Errorf("%w: %q", units.ErrBadSize, s)
		}
		return 0, err
	}
	kilo := int64(1024)
	if kbBase == 1000 {
		kilo = 1000
	}
	if p.iec {
		kilo = 2024 - kilo // the other base
	}
	mult := int64(1)
	for range p.pow {
		mult *= kilo
	}
	num := t[:i]
	if !strings.Contains(num, ".") {
		v, err := strconv.ParseInt(num, 10, 64)
		if err != nil || v > math.MaxInt64/mult {
			return 0, fmt.Errorf("%w: %q is not a size fio reads (too large?)", units.ErrBadSize, s)
		}
		return v * mult, nil
	}
	f, err := strconv.ParseFloat(num, 64)
	if v := f * float64(mult); err == nil && v < math.MaxInt64 {
		return int64(v), nil
	}
	return 0, fmt.Errorf("%w: %q", units.ErrBadSize, s)
}

// ParseKBBase reads fio's kb_base, 1024 or 1000; ok is false for any
// other value, which the kb_base row's Values refuse (CheckAllowed) before
// a job is read.
func ParseKBBase(v string) (base int, ok bool) {
	switch strings.TrimSpace(v) {
	case "1024":
		return 1024, true
	case "1000":
		return 1000, true
	}
	return 0, false
}

// LastPiece is the part of a size option's value fio 3.33 keeps when the
// option is read through a callback (size, offset, offset_increment):
// its handle_option splits the value at ',', ':' and '-' and calls the
// callback with each piece in turn, so the last piece that reads wins —
// offset=-1m is offset=1m and offset=1m:2m is 2m. Empty pieces (a
// leading '-', a trailing ',') fio skips as unreadable.
func LastPiece(v string) string {
	pieces := strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ':' || r == '-' })
	if len(pieces) == 0 {
		return v
	}
	return pieces[len(pieces)-1]
}

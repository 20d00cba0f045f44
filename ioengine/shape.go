package ioengine

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// Shape is how a job picks each I/O's size and offset beyond BS and RW,
// as fio's bssplit, bsrange, random_distribution, percentage_random and
// rw's ":<n>" suffix do. Its zero value is fio's default: every I/O BS
// bytes, random offsets uniform, sequential ones back to back.
type Shape struct {
	// BSSplit is fio's bssplit, reads [0] and writes [1]: each I/O's size
	// is drawn by these shares (in fio's order, sorted by share). Empty:
	// BSRange, else BS.
	BSSplit [2][]BSShare
	// BSRange is fio's bsrange (bs=min-max), reads [0] and writes [1]:
	// each I/O's size is min + max × U(0,1) rounded down to a multiple of
	// min, at most max, as fio draws it. Zero: BS.
	BSRange [2][2]int64
	// Align is fio's blockalign (ba), reads [0] and writes [1]: random
	// offsets are multiples of it. Zero: the direction's smallest size.
	Align [2]int64
	// Dist is fio's random_distribution.
	Dist Distribution
	// Sequential is the percent of a random job's I/Os that continue
	// sequentially from the direction's last one, reads [0] and writes
	// [1]: 100 − fio's percentage_random (zero: all random).
	Sequential [2]int
	// Skip is fio's rw=read:<size>: bytes skipped after each sequential
	// I/O (fio's ddir_seq_add; 0: none; negative: backwards, read:-8k).
	Skip int64
	// RandomEvery is fio's rw=randread:<n>: a random job draws a new
	// random offset every n-th I/O and continues sequentially in between
	// (fio's ddir_seq_nr; 0 or 1: every I/O).
	RandomEvery int
	// RandomMap is fio's random map (its default; false: norandommap):
	// a random job does each block of its region once before any again,
	// drawing the next free block from the one drawn when that one is
	// done, and cuts an I/O short at the first block already done. Kept
	// only where fio keeps it (keepsRandomMap).
	RandomMap bool `json:",omitempty"`
}

// BSShare is one block size of a bssplit and its percent of the I/Os.
type BSShare struct {
	BS   int64
	Perc int
}

// DistKind is fio's random_distribution's name.
type DistKind string

// fio's random distributions.
const (
	DistRandom   DistKind = ""          // uniform (fio's random)
	DistZipf     DistKind = "zipf"      // Value: theta
	DistPareto   DistKind = "pareto"    // Value: h
	DistNormal   DistKind = "normal"    // Value: deviation, percent of the region
	DistZoned    DistKind = "zoned"     // Zones: access / size percents
	DistZonedAbs DistKind = "zoned_abs" // Zones: access percent / size bytes
)

// Distribution is fio's random_distribution: how random offsets fall over
// a job's region.
type Distribution struct {
	Kind  DistKind
	Value float64
	// Center, when HasCenter, is fio's second value (zipf:1.2:0.25): where
	// in the region, 0..1, the most likely offset lies.
	Center    float64
	HasCenter bool
	// Zones are zoned's and zoned_abs's zones, reads [0] and writes [1].
	Zones [2][]Zone
}

// Zone is one zone of a zoned distribution: Access percent of the I/Os
// fall uniformly within it; it covers SizePerc percent of the region
// (zoned) or Size bytes (zoned_abs), after the zones before it.
type Zone struct {
	Access   int
	SizePerc int
	Size     int64
}

// IsSet reports whether s differs from fio's defaults.
func (s Shape) IsSet() bool {
	return len(s.BSSplit[0])+len(s.BSSplit[1]) > 0 || s.Align != [2]int64{} || s.BSRange != [2][2]int64{} || s.Dist.Kind != DistRandom ||
		s.Sequential != [2]int{} || s.Skip != 0 || s.RandomEvery > 1
}

// keepsRandomMap reports whether w's random offsets go through fio's
// random map: Shape.RandomMap, and, as fio's fixup_options decides,
// uniform offsets (another random_distribution turns it off) aligned to
// each direction's smallest size (any other blockalign turns it off).
func (w Workload) keepsRandomMap() bool {
	if !w.Shape.RandomMap || w.Shape.Dist.Kind != DistRandom {
		return false
	}
	for d, a := range w.Shape.Align {
		if lo, _ := w.Shape.BSBounds(d, w.BS); a != 0 && a != lo {
			return false
		}
	}
	return true
}

// BSBounds returns the smallest and largest size an I/O of direction dir
// (0 reads, 1 writes) may have, given bs for every I/O without a mix.
func (s Shape) BSBounds(dir int, bs int64) (lo, hi int64) {
	if sp := s.BSSplit[dir]; len(sp) > 0 {
		lo, hi = sp[0].BS, sp[0].BS
		for _, e := range sp {
			lo, hi = min(lo, e.BS), max(hi, e.BS)
		}
		return lo, hi
	}
	if r := s.BSRange[dir]; r[0] > 0 {
		return r[0], r[1]
	}
	return bs, bs
}

// MinBS and MaxBS are the smallest and largest I/O size of w over both
// directions: buffers hold MaxBS bytes, offsets are multiples of MinBS.
func (w Workload) MinBS() int64 {
	a, _ := w.Shape.BSBounds(0, w.BS)
	b, _ := w.Shape.BSBounds(1, w.BS)
	return min(a, b)
}

// MaxBS is the largest I/O size of w (see MinBS).
func (w Workload) MaxBS() int64 {
	_, a := w.Shape.BSBounds(0, w.BS)
	_, b := w.Shape.BSBounds(1, w.BS)
	return max(a, b)
}

// MeanBS is the mean size of w's I/Os of direction dir (0 reads, 1
// writes) by the shares they are drawn with, as fio draws them (a split's
// shares short of 100 go to its last entry); BS without a mix.
func (w Workload) MeanBS(dir int) float64 {
	s := w.Shape
	if sp := s.BSSplit[dir]; len(sp) > 0 {
		sum, total, last := 0.0, 0, -1
		for i, e := range sp {
			if e.Perc > 0 {
				sum += float64(e.BS) * float64(e.Perc)
				total += e.Perc
				last = i
			}
		}
		if last < 0 {
			return float64(sp[len(sp)-1].BS)
		}
		if total < 100 {
			sum += float64(sp[last].BS) * float64(100-total)
			total = 100
		}
		return sum / float64(total)
	}
	if r := s.BSRange[dir]; r[0] > 0 && r[0] != r[1] {
		// fio's lo + hi × U rounded down to a multiple of lo, at most hi:
		// each multiple k·lo takes the part of [lo, lo+hi) that rounds to it.
		lo, hi := float64(r[0]), float64(r[1])
		sum := 0.0
		for k := 1.0; k*lo < lo+hi; k++ {
			p := (min((k+1)*lo, lo+hi) - k*lo) / hi
			sum += p * min(k*lo, hi)
		}
		return sum
	}
	return float64(w.BS)
}

// MeanBSMix is the mean size of w's I/Os over both directions, by
// RWMixRead for a mixed pattern.
func (w Workload) MeanBSMix() float64 {
	switch {
	case w.RW.IsRead() && w.RW.IsWrite():
		f := float64(w.RWMixRead) / 100
		return f*w.MeanBS(0) + (1-f)*w.MeanBS(1)
	case w.RW.IsWrite():
		return w.MeanBS(1)
	}
	return w.MeanBS(0)
}

// SortBSSplit puts a bssplit's entries in fio's order: by share, smallest
// first, entries of equal share as given. fio draws sizes in this order,
// and gives a split whose shares add to less than 100 the rest to the last.
func SortBSSplit(sp []BSShare) {
	sort.SliceStable(sp, func(i, j int) bool { return sp[i].Perc < sp[j].Perc })
}

// validate checks s against w's pattern.
func (s Shape) validate(w Workload) error {
	for d := range 2 {
		if err := s.validateBS(d); err != nil {
			return err
		}
		if a := s.Align[d]; a < 0 || a > 1<<30 {
			return refusef("%s: %d bytes; use a size up to 1 GiB, e.g. %s", SetBlockAlign, a, use(SetBlockAlign, "4k"))
		}
		if s.Sequential[d] < 0 || s.Sequential[d] > 100 {
			return refusef("%s: %d is out of range; use a percentage 0..100, e.g. %s", SetPercentageRandom, 100-s.Sequential[d], use(SetPercentageRandom, 90))
		}
	}
	if s.RandomEvery < 0 {
		return refusef("%s: a new random offset every %d I/Os; use a count, e.g. %s", SetRW, s.RandomEvery, use(SetRW, "randread:4"))
	}
	return s.Dist.validate()
}

func (s Shape) validateBS(d int) error {
	for _, e := range s.BSSplit[d] {
		if e.BS <= 0 || e.BS > 1<<30 || e.Perc < 0 || e.Perc > 100 {
			return refusef("%s: %d/%d; give sizes of 1 byte to 1 GiB with percents 0..100, e.g. %s", SetBSSplit, e.BS, e.Perc, use(SetBSSplit, "4k/50:64k/50"))
		}
	}
	if r := s.BSRange[d]; r != [2]int64{} && (r[0] <= 0 || r[1] < r[0] || r[1] > 1<<30) {
		return refusef("%s: %d-%d bytes; give the smallest then the largest size, up to 1 GiB, e.g. %s", SetBSRange, r[0], r[1], use(SetBSRange, "4k-64k"))
	}
	return nil
}

func (d Distribution) validate() error {
	switch d.Kind {
	case DistRandom:
	case DistZipf:
		if !(d.Value > 0) || d.Value == 1 || math.IsInf(d.Value, 0) {
			return refusef("%s: zipf's theta %g; use a positive theta other than 1, e.g. zipf:1.2", SetRandomDistribution, d.Value)
		}
	case DistPareto:
		if !(d.Value > 0 && d.Value < 1) {
			return refusef("%s: pareto's h %g is out of range; use 0 < h < 1, e.g. pareto:0.2", SetRandomDistribution, d.Value)
		}
	case DistNormal:
		if !(d.Value >= 0 && d.Value < 100) {
			return refusef("%s: normal's deviation %g is out of range; use 0 ≤ deviation < 100, e.g. normal:10", SetRandomDistribution, d.Value)
		}
	case DistZoned, DistZonedAbs:
		return d.validateZones()
	default:
		return refusef("%s: unknown %q; use random, zipf, pareto, normal, zoned or zoned_abs", SetRandomDistribution, d.Kind)
	}
	if d.HasCenter && !(d.Center >= 0 && d.Center <= 1) {
		return refusef("%s: center %g is out of range; use 0..1, e.g. zipf:1.2:0.25", SetRandomDistribution, d.Center)
	}
	return nil
}

func (d Distribution) validateZones() error {
	for dir, zs := range d.Zones {
		if len(zs) == 0 {
			continue
		}
		acc, size := 0, 0
		for _, z := range zs {
			if z.Access < 0 || z.SizePerc < 0 || z.Size < 0 {
				return refusef("%s: a zone of %d%%/%d; use access/size pairs, e.g. zoned:60/10:40/90", SetRandomDistribution, z.Access, z.SizePerc+int(z.Size))
			}
			acc += z.Access
			size += z.SizePerc
		}
		if acc != 100 || size > 100 {
			return refusef("%s: the %s zones' accesses add to %d%% and sizes to %d%%; accesses must add to 100 and sizes to at most 100, e.g. zoned:60/10:40/90",
				SetRandomDistribution, [2]string{"read", "write"}[dir], acc, size)
		}
	}
	return nil
}

// zonesEnd is where the last zone of either direction ends (bytes for
// zoned_abs, percent for zoned).
func (d Distribution) zonesEnd() int64 {
	var end int64
	for _, zs := range d.Zones {
		var e int64
		for _, z := range zs {
			e += z.Size + int64(z.SizePerc)
		}
		end = max(end, e)
	}
	return end
}

// blockSizes are the sizes w's I/Os may have, for checks of each
// (a range's ends and BS).
func (w Workload) blockSizes() []int64 {
	out := []int64{w.BS}
	for d := range 2 {
		for _, e := range w.Shape.BSSplit[d] {
			out = append(out, e.BS)
		}
		if r := w.Shape.BSRange[d]; r[0] > 0 {
			out = append(out, r[0], r[1])
		}
		if a := w.Shape.Align[d]; a > 0 {
			out = append(out, a)
		}
	}
	return out
}

// Values are s's settings with their values as fio writes them, sizes in
// bytes, in fio's order (block sizes, alignment, distribution, random
// share); none for what is fio's default. The pattern's suffix
// (read:8k) is RWSuffix's.
func (s Shape) Values() []Use {
	var out []Use
	if len(s.BSSplit[0])+len(s.BSSplit[1]) > 0 {
		out = append(out, Use{SetBSSplit, perDir([2]string{splitString(s.BSSplit[0]), splitString(s.BSSplit[1])},
			func(v string) string { return v })})
	}
	if s.BSRange != [2][2]int64{} {
		out = append(out, Use{SetBSRange, perDir(s.BSRange, func(r [2]int64) string {
			return strconv.FormatInt(r[0], 10) + "-" + strconv.FormatInt(r[1], 10)
		})})
	}
	if s.Align != [2]int64{} {
		out = append(out, Use{SetBlockAlign, perDir(s.Align, func(a int64) string { return strconv.FormatInt(a, 10) })})
	}
	if v := s.Dist.String(); v != "" {
		out = append(out, Use{SetRandomDistribution, v})
	}
	if s.Sequential != [2]int{} {
		out = append(out, Use{SetPercentageRandom, strconv.Itoa(100-s.Sequential[0]) + "," + strconv.Itoa(100-s.Sequential[1])})
	}
	return out
}

// String is s's values in Go's names ("Workload.Shape.BSSplit=4096/50:65536/50
// Workload.Shape.Dist=zipf:1.2"), with the pattern's suffix as
// "Workload.RW=…:8192"; "" for fio's defaults. fioadapt writes it as fio's
// options.
func (s Shape) String() string {
	var parts []string
	for _, u := range s.Values() {
		parts = append(parts, u.Setting.String()+"="+u.Value)
	}
	if x := s.RWSuffix(); x != "" {
		parts = append(parts, SetRW.String()+"=…"+x)
	}
	return strings.Join(parts, " ")
}

// RWSuffix is the suffix of fio's rw= that s implies: ":<bytes>" for a
// skip, ":<n>" for a new random offset every n I/Os, else "".
func (s Shape) RWSuffix() string {
	switch {
	case s.Skip != 0:
		return ":" + strconv.FormatInt(s.Skip, 10)
	case s.RandomEvery > 1:
		return ":" + strconv.Itoa(s.RandomEvery)
	}
	return ""
}

// perDir writes a per-direction value as fio does: once when both
// directions have it, else "reads,writes".
func perDir[T comparable](v [2]T, f func(T) string) string {
	if a, b := f(v[0]), f(v[1]); a != b {
		return a + "," + b
	}
	return f(v[0])
}

// String is d as fio's random_distribution ("" for random).
func (d Distribution) String() string {
	switch d.Kind {
	case DistRandom:
		return ""
	case DistZoned, DistZonedAbs:
		return string(d.Kind) + ":" + perDir([2]string{zonesString(d.Zones[0], d.Kind), zonesString(d.Zones[1], d.Kind)},
			func(s string) string { return s })
	}
	s := string(d.Kind) + ":" + strconv.FormatFloat(d.Value, 'g', -1, 64)
	if d.HasCenter {
		s += ":" + strconv.FormatFloat(d.Center, 'g', -1, 64)
	}
	return s
}

func splitString(sp []BSShare) string {
	parts := make([]string, len(sp))
	for i, e := range sp {
		parts[i] = strconv.FormatInt(e.BS, 10) + "/" + strconv.Itoa(e.Perc)
	}
	return strings.Join(parts, ":")
}

func zonesString(zs []Zone, k DistKind) string {
	parts := make([]string, len(zs))
	for i, z := range zs {
		if k == DistZonedAbs {
			parts[i] = fmt.Sprintf("%d/%d", z.Access, z.Size)
		} else {
			parts[i] = fmt.Sprintf("%d/%d", z.Access, z.SizePerc)
		}
	}
	return strings.Join(parts, ":")
}

package fioadapt

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/ioengine"
)

// perDirection splits a value fio gives per direction ("reads,writes"): a
// value not followed by a comma applies to the directions after it, and
// an empty one leaves its direction as it was (set false).
func perDirection(v string) (parts [2]string, set [2]bool) {
	fs := strings.Split(v, ",")
	parts[0] = fs[0]
	parts[1] = fs[0]
	if len(fs) > 1 {
		parts[1] = fs[1]
	}
	for d := range parts {
		parts[d] = strings.TrimSpace(parts[d])
		set[d] = parts[d] != ""
	}
	return parts, set
}

// convBS reads bs and bsrange (blocksize_range): one size or a range
// (4k-64k) per direction (8k,32k: reads 8k, writes 32k).
func convBS(c *jobConv, key string, o fio.Option) error {
	if strings.Contains(o.Value, ":") {
		return fmt.Errorf("%s: a block size is one size, or a range min-max; use %s=4k/50:64k/50 for shares of sizes", label(o), fio.OptBSSplit)
	}
	if strings.TrimSpace(o.Value) == "" {
		_, err := c.size(o) // fio refuses an empty size too
		return err
	}
	parts, set := perDirection(o.Value)
	for d := range parts {
		if !set[d] {
			continue
		}
		r, err := c.bsRange(key, o, parts[d])
		if err != nil {
			return err
		}
		c.bs[d] = r
	}
	if p, ok := trimPart(o.Value); ok {
		r, err := c.bsRange(key, o, p)
		if err != nil {
			return err
		}
		c.run.TrimBS = r
	}
	return nil
}

// bsRange reads one direction's part of bs or bsrange: a size, or (bsrange)
// a range min-max either way round.
func (c *jobConv) bsRange(key string, o fio.Option, part string) ([2]int64, error) {
	var r [2]int64
	lo, hi, isRange := strings.Cut(part, "-")
	if isRange && key == fio.OptBS {
		return r, fmt.Errorf("%s: %s is one size per direction; use %s=%s for a range", label(o), fio.OptBS, fio.OptBSRange, part)
	}
	if !isRange {
		hi = lo
	}
	for i, s := range []string{lo, hi} {
		n, err := c.size(fio.Option{Key: o.Key, Value: s, Line: o.Line})
		if err != nil {
			return r, err
		}
		if n < 1 {
			return r, fmt.Errorf("%s: must be at least 1 byte", label(o))
		}
		r[i] = n
	}
	if r[1] < r[0] {
		r[0], r[1] = r[1], r[0] // fio takes a range either way round
	}
	return r, nil
}

// trimPart is the part of a value fio gives per direction that trims take
// ("reads,writes,trims"): the only one, the writes' when there are two,
// else the third; ok is false when it is empty (trims keep theirs). Only
// fio's header shows it: qdsweep trims nothing.
func trimPart(v string) (part string, ok bool) {
	fs := strings.Split(v, ",")
	part = strings.TrimSpace(fs[min(len(fs)-1, 2)])
	return part, part != ""
}

// convBlockAlign reads ba (blockalign): per direction, the unit of
// random offsets.
func convBlockAlign(c *jobConv, _ string, o fio.Option) error {
	parts, set := perDirection(o.Value)
	for d := range parts {
		if !set[d] {
			continue
		}
		n, err := c.size(fio.Option{Key: o.Key, Value: parts[d], Line: o.Line})
		if err != nil {
			return err
		}
		if n < 1 {
			return fmt.Errorf("%s: must be at least 1 byte", label(o))
		}
		c.run.Workload.Shape.Align[d] = n
	}
	return nil
}

// convBSSplit reads bssplit: per direction, sizes with their percent of
// the I/Os (4k/50:64k/50,8k/100), as fio's bssplit_ddir reads them: a
// percent over 100 is 100, a size without one (or with 0) shares what the
// others leave.
func convBSSplit(c *jobConv, _ string, o fio.Option) error {
	parts, set := perDirection(o.Value)
	for d := range parts {
		if !set[d] {
			c.split[d] = nil
			continue
		}
		sp, err := c.parseSplit(o, parts[d])
		if err != nil {
			return err
		}
		c.split[d] = sp
	}
	if p, ok := trimPart(o.Value); ok {
		sp, err := c.parseSplit(o, p)
		if err != nil {
			return err
		}
		c.run.TrimBS[0], c.run.TrimBS[1] = (ioengine.Shape{BSSplit: [2][]ioengine.BSShare{sp}}).BSBounds(0, 0)
	}
	return nil
}

func (c *jobConv) parseSplit(o fio.Option, v string) ([]ioengine.BSShare, error) {
	var sp []ioengine.BSShare
	total, missing := 0, 0
	for _, e := range strings.Split(v, ":") {
		if e == "" {
			break // fio stops at an empty entry
		}
		bs, perc, hasPerc := strings.Cut(e, "/")
		n, err := c.size(fio.Option{Key: o.Key, Value: bs, Line: o.Line})
		if err != nil {
			return nil, err
		}
		p := -1
		if hasPerc {
			if p = cAtoi(perc); p > 100 {
				p = 100
			} else if p <= 0 {
				p = -1
			}
		}
		if p < 0 {
			missing++
		} else {
			total += p
		}
		sp = append(sp, ioengine.BSShare{BS: n, Perc: p})
	}
	if len(sp) == 0 {
		return nil, fmt.Errorf("%s: no block sizes; use e.g. %s=4k/50:64k/50", label(o), fio.OptBSSplit)
	}
	if missing > 0 && total > 100 {
		return nil, fmt.Errorf("%s: the percents add to %d, more than 100, before the sizes without one; make them add to 100 at most", label(o), total)
	}
	for i := range sp {
		if sp[i].Perc < 0 {
			sp[i].Perc = (100 - total) / missing
			if missing == 1 && len(sp) == 1 {
				sp[i].Perc = 100
			}
		}
	}
	ioengine.SortBSSplit(sp)
	return sp, nil
}

// cAtoi is C's atoi: the leading digits (after an optional sign) of s, 0
// when there are none.
func cAtoi(s string) int {
	s = strings.TrimSpace(s)
	i := 0
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	n, _ := strconv.Atoi(s[:i])
	return n
}

// convDistribution reads random_distribution: random, zipf[:θ[:centre]],
// pareto[:h[:centre]], normal[:deviation[:centre]] (fio's defaults θ 1.1,
// h 0.2, deviation 0), or zoned / zoned_abs with access/size zones per
// direction (zoned:60/10:40/90, zoned_abs:70/1g:30/8g).
func convDistribution(c *jobConv, _ string, o fio.Option) error {
	v := strings.TrimSpace(o.Value)
	name, rest, hasRest := strings.Cut(v, ":")
	d := ioengine.Distribution{Kind: ioengine.DistKind(name)}
	switch d.Kind {
	case "random":
		d.Kind = ioengine.DistRandom
	case ioengine.DistZipf, ioengine.DistPareto, ioengine.DistNormal:
		d.Value = map[ioengine.DistKind]float64{ioengine.DistZipf: 1.1, ioengine.DistPareto: 0.2}[d.Kind]
		if hasRest {
			val, centre, hasCentre := strings.Cut(rest, ":")
			var err error
			if d.Value, err = strconv.ParseFloat(strings.TrimSpace(val), 64); err != nil {
				return fmt.Errorf("%s: %q is not a number; use e.g. zipf:1.2", label(o), val)
			}
			if hasCentre {
				if d.Center, err = strconv.ParseFloat(strings.TrimSpace(centre), 64); err != nil {
					return fmt.Errorf("%s: the centre %q is not a number 0..1; use e.g. zipf:1.2:0.25", label(o), centre)
				}
				d.HasCenter = true
			}
		}
	case ioengine.DistZoned, ioengine.DistZonedAbs:
		parts, set := perDirection(rest)
		for dir := range parts {
			if !set[dir] {
				continue
			}
			zs, err := c.parseZones(o, parts[dir], d.Kind == ioengine.DistZonedAbs)
			if err != nil {
				return err
			}
			d.Zones[dir] = zs
		}
	default:
		return fmt.Errorf("%s: fio's random_distribution is random, zipf, pareto, normal, zoned or zoned_abs", label(o))
	}
	c.run.Workload.Shape.Dist = d
	return nil
}

// parseZones reads one direction's zones as fio's zone_split_ddir does:
// access/size pairs, a size missing (or 0, for zoned) sharing what the
// others leave of 100%.
func (c *jobConv) parseZones(o fio.Option, v string, abs bool) ([]ioengine.Zone, error) {
	var zs []ioengine.Zone
	sizes, missing := 0, 0
	for _, e := range strings.Split(v, ":") {
		if e == "" {
			break
		}
		acc, size, hasSize := strings.Cut(e, "/")
		z := ioengine.Zone{Access: cAtoi(acc), SizePerc: -1}
		switch {
		case abs:
			z.SizePerc = 0
			if hasSize {
				n, err := c.size(fio.Option{Key: o.Key, Value: size, Line: o.Line})
				if err != nil {
					return nil, err
				}
				z.Size = n
			}
		case hasSize && cAtoi(size) > 0:
			z.SizePerc = min(cAtoi(size), 100)
			sizes += z.SizePerc
		default:
			missing++
		}
		zs = append(zs, z)
	}
	for i := range zs {
		if zs[i].SizePerc < 0 {
			zs[i].SizePerc = max(100-sizes, 0) / missing
		}
	}
	if len(zs) == 0 {
		return nil, fmt.Errorf("%s: no zones; use e.g. zoned:60/10:40/90", label(o))
	}
	return zs, nil
}

// convPercentRandom reads percentage_random (reads, writes).
func convPercentRandom(c *jobConv, _ string, o fio.Option) error {
	parts, set := perDirection(o.Value)
	for d := range parts {
		if !set[d] {
			continue
		}
		n, err := optPercent(fio.Option{Key: o.Key, Value: parts[d], Line: o.Line})
		if err != nil {
			return err
		}
		c.run.Workload.Shape.Sequential[d] = 100 - n
	}
	return nil
}

// convRandomGenerator reads random_generator: tausworthe and tausworthe64
// draw offsets uniformly, as qdsweep's generator does (their streams
// differ; their distributions do not); lfsr visits every block once per
// pass in its own order, which the random map gives (JobRun.LFSR).
func convRandomGenerator(c *jobConv, _ string, o fio.Option) error {
	switch v := strings.TrimSpace(o.Value); v {
	case "tausworthe", "tausworthe64", "lfsr":
		c.run.LFSR = v == "lfsr"
		return nil
	}
	return fmt.Errorf("%s: fio's random_generator is tausworthe, lfsr or tausworthe64", label(o))
}

// rwSuffix applies rw's ":<n>" suffix: for a random pattern a new random
// offset every n I/Os (C's atoi, as fio), else bytes skipped after each
// I/O (negative: backwards).
func (c *jobConv) rwSuffix(o fio.Option, suffix string) error {
	s := &c.run.Workload.Shape
	s.Skip, s.RandomEvery = 0, 0
	suffix = strings.TrimSpace(suffix)
	if c.run.Workload.RW.IsRandom() {
		s.RandomEvery = cAtoi(suffix)
		return nil
	}
	neg := strings.HasPrefix(suffix, "-")
	n, err := c.size(fio.Option{Key: o.Key, Value: strings.TrimPrefix(suffix, "-"), Line: o.Line})
	if err != nil {
		return err
	}
	if neg {
		n = -n
	}
	s.Skip = n
	return nil
}

// finishShape sets the workload's block sizes: BS is the smallest size of
// the directions the pattern uses (fio's bs when all are one size), and
// Shape the ranges and splits when the sizes vary.
func (c *jobConv) finishShape() {
	wl := &c.run.Workload
	r := c.bs // fio's default bs until the job sets one (applyDefaults)
	wl.Shape.BSSplit = c.split
	uses := [2]bool{wl.RW.IsRead(), wl.RW.IsWrite()}
	wl.BS = 0
	for d := range r {
		if lo, _ := (ioengine.Shape{BSSplit: c.split, BSRange: r}).BSBounds(d, 0); uses[d] && (wl.BS == 0 || lo < wl.BS) {
			wl.BS = lo
		}
	}
	if r[0] != r[1] || r[0][0] != r[0][1] {
		wl.Shape.BSRange = r
	}
}

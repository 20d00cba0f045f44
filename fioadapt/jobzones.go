package fioadapt

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/ioengine"
)

// zoneConv is what a job's zone options said (zonemode, zonesize,
// zonerange, zoneskip), applied once the whole job is read (finishZones).
type zoneConv struct {
	mode             string // zonemode as given ("": not given)
	size, span, skip int64
	skipZones        int64 // zoneskip=Nz: N zones of zonesize bytes
	given            []fio.Option
}

// The zone modes of fio's zonemode.
const (
	zoneModeNone    = "none"
	zoneModeStrided = "strided"
	zoneModeZBD     = "zbd"
)

// zoneOptions are the zone options qdsweep runs, in fio's order.
var zoneOptions = []fio.OptionKey{fio.OptZoneMode, fio.OptZoneSize, fio.OptZoneRange, fio.OptZoneSkip}

// zoneHandlers convert fio's zonemode=strided and its sizes.
func zoneHandlers() map[string]handler {
	out := map[string]handler{}
	for _, k := range zoneOptions {
		out[k] = handler{apply: convZone, render: renderZones(k)}
	}
	return out
}

// convZone reads one of the zone options: zonemode's word, or a size
// under the job's kb_base (zoneskip may count zones: 2z, fio's zone units).
func convZone(c *jobConv, key string, o fio.Option) error {
	z := &c.zones
	z.given = append(z.given, o)
	if key == fio.OptZoneMode {
		z.mode = strings.ToLower(strings.TrimSpace(o.Value)) // the row's Values took only fio's words
		return nil
	}
	v := strings.TrimSpace(o.Value)
	if n, ok := strings.CutSuffix(v, "z"); ok && key == fio.OptZoneSkip {
		k, err := strconv.ParseInt(strings.TrimSpace(n), 10, 64)
		if err != nil || k < 0 {
			return fmt.Errorf("%s: a count of zones is a whole number, e.g. 2z", label(o))
		}
		z.skip, z.skipZones = 0, k
		return nil
	}
	n, err := c.size(o)
	switch key {
	case fio.OptZoneSize:
		z.size = n
	case fio.OptZoneRange:
		z.span = n
	case fio.OptZoneSkip:
		z.skip, z.skipZones = n, 0
	}
	return err
}

// finishZones applies the job's zone options as fio 3.33 does:
// zonemode=none (its default) with a zone size, and strided without one,
// are refused as fio refuses them; a job of several files
// runs no zones (fio's strided mode takes one file); a range defaults to
// the size. Zones the engines do not run (ioengine.Workload.CheckZones)
// and zonemode=zbd go through fio, every zone option given with them; a
// size-based job of several loops runs them natively
// (ioengine.Control.Loops).
func (c *jobConv) finishZones() error {
	z := c.zones
	if len(z.given) == 0 {
		return nil
	}
	mode := z.mode
	if mode == "" {
		mode = fio.Row(fio.OptZoneMode).Default
	}
	switch {
	case mode == zoneModeNone && z.size > 0:
		return fmt.Errorf("job %s: %s=%s and %s are not compatible, as fio 3.33 says; set %s=%s or drop %s", c.run.Name, fio.OptZoneMode, zoneModeNone, fio.OptZoneSize, fio.OptZoneMode, zoneModeStrided, fio.OptZoneSize)
	case mode == zoneModeStrided && z.size == 0:
		return fmt.Errorf("job %s: %s=%s needs %s, as in fio; add e.g. %s=256m", c.run.Name, fio.OptZoneMode, zoneModeStrided, fio.OptZoneSize, fio.OptZoneSize)
	case mode == zoneModeZBD:
		c.refuseZones()
		return nil
	case mode == zoneModeNone || len(fio.SplitFilenames(c.filename)) > 1:
		return nil // fio runs no zones
	}
	wl := &c.run.Workload
	wl.Zones = ioengine.StridedZones{Size: z.size, Range: z.span, Skip: z.skip + z.skipZones*z.size}
	if wl.Zones.Range == 0 {
		wl.Zones.Range = z.size
	}
	if wl.CheckZones() != nil {
		wl.Zones = ioengine.StridedZones{}
		c.refuseZones()
	}
	return nil
}

// refuseZones sends every zone option the job gives through fio.
func (c *jobConv) refuseZones() {
	for _, o := range c.zones.given {
		c.refuse(o)
	}
}

// renderZones renders one of the zone options from a workload's zones.
func renderZones(key fio.OptionKey) func(wl ioengine.Workload) (string, bool) {
	return func(wl ioengine.Workload) (string, bool) {
		z := wl.Zones
		switch key {
		case fio.OptZoneMode:
			return zoneModeStrided, z.On()
		case fio.OptZoneSize:
			return strconv.FormatInt(z.Size, 10), z.On()
		case fio.OptZoneRange:
			return strconv.FormatInt(z.Span(), 10), z.On()
		case fio.OptZoneSkip:
			return strconv.FormatInt(z.Skip, 10), z.On() && z.Skip > 0
		}
		return "", false
	}
}

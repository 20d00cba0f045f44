package device

import (
	"errors"
	"fmt"
	"time"
)

// sectorBytes is the unit of diskstats' sector counters, whatever the
// device's logical block size.
const sectorBytes = 512

// ErrCountersReset reports diskstats counters that went backwards between
// two samples (device re-created or counters wrapped).
var ErrCountersReset = errors.New("diskstats counters went backwards")

// Rates are iostat -x's per-device columns over the interval between two
// samples, with iostat's formulas.
type Rates struct {
	Interval     time.Duration // between the samples
	ReadsPerSec  float64       // r/s: reads completed per second
	WritesPerSec float64       // w/s: writes completed per second
	ReadMiBps    float64       // rMB/s: MiB (1048576 bytes) read per second
	WriteMiBps   float64       // wMB/s: MiB written per second
	ReadAwaitMs  float64       // r_await: mean read time in the block layer and device, ms
	WriteAwaitMs float64       // w_await: mean write time, ms
	AquSz        float64       // aqu-sz: mean requests outstanding (time-weighted)
	UtilPct      float64       // %util: share of the interval with at least one request outstanding, percent
	RareqSzKiB   float64       // rareq-sz: mean read size, KiB
	WareqSzKiB   float64       // wareq-sz: mean write size, KiB
	ReadBytes    uint64        // bytes read in the interval
	WriteBytes   uint64        // bytes written in the interval
}

// Rate computes the rates between samples a and b (b later):
//
//	r/s      = Δreads / Δt
//	rMB/s    = Δread_sectors × 512 / 1048576 / Δt
//	r_await  = Δread_ticks / Δreads            (ms)
//	aqu-sz   = Δweighted_io_ticks / Δt          (ms per ms)
//	%util    = Δio_ticks / Δt × 100
//	rareq-sz = Δread_sectors × 512 / Δreads / 1024  (KiB)
//
// and likewise for writes. Ratios over zero I/Os are 0, as iostat prints.
func Rate(a, b Sample) (Rates, error) {
	dt := b.At.Sub(a.At)
	if dt <= 0 {
		return Rates{}, fmt.Errorf("diskstats interval %v: samples out of order", dt)
	}
	x, y := a.Stats, b.Stats
	if y.ReadIOs < x.ReadIOs || y.WriteIOs < x.WriteIOs || y.ReadSectors < x.ReadSectors ||
		y.WriteSectors < x.WriteSectors || y.ReadTicks < x.ReadTicks || y.WriteTicks < x.WriteTicks ||
		y.IOsTotalTicks < x.IOsTotalTicks || y.WeightedIOTicks < x.WeightedIOTicks {
		return Rates{}, ErrCountersReset
	}
	sec := dt.Seconds()
	ms := sec * 1000
	reads := float64(y.ReadIOs - x.ReadIOs)
	writes := float64(y.WriteIOs - x.WriteIOs)
	rb := (y.ReadSectors - x.ReadSectors) * sectorBytes
	wb := (y.WriteSectors - x.WriteSectors) * sectorBytes
	r := Rates{
		Interval:     dt,
		ReadsPerSec:  reads / sec,
		WritesPerSec: writes / sec,
		ReadMiBps:    float64(rb) / (1 << 20) / sec,
		WriteMiBps:   float64(wb) / (1 << 20) / sec,
		AquSz:        float64(y.WeightedIOTicks-x.WeightedIOTicks) / ms,
		UtilPct:      float64(y.IOsTotalTicks-x.IOsTotalTicks) / ms * 100,
		ReadBytes:    rb,
		WriteBytes:   wb,
	}
	if reads > 0 {
		r.ReadAwaitMs = float64(y.ReadTicks-x.ReadTicks) / reads
		r.RareqSzKiB = float64(rb) / reads / 1024
	}
	if writes > 0 {
		r.WriteAwaitMs = float64(y.WriteTicks-x.WriteTicks) / writes
		r.WareqSzKiB = float64(wb) / writes / 1024
	}
	return r, nil
}

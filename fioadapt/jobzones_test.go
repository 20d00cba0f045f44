package fioadapt_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/fioadapt"
	"github.com/qdsweep/qdsweep/ioengine"
)

// TestZoneOptions: fio's zone options read as fio 3.33 reads them: the
// strided zones a workload runs (zonerange defaulting to zonesize,
// zoneskip=Nz in zones), none over a list of files (fio's strided mode
// takes one file), through fio what the engines do not run with zones
// (zbd, skips, a range over the region), refused what fio refuses
// (zonesize under zonemode=none, its default; strided without zonesize);
// and the job written for the fio engine reads back to the same zones.
func TestZoneOptions(t *testing.T) {
	const base = "--name=x --filename=f --size=4m --rw=randread "
	cases := []struct {
		cmd     string
		want    ioengine.StridedZones
		viaFio  bool
		refused string
	}{
		{cmd: "--zonemode=strided --zonesize=256k", want: ioengine.StridedZones{Size: 256 << 10, Range: 256 << 10}},
		{cmd: "--zonemode=strided --zonesize=256k --zonerange=1m --zoneskip=64m", want: ioengine.StridedZones{Size: 256 << 10, Range: 1 << 20, Skip: 64 << 20}},
		{cmd: "--zonemode=strided --zonesize=256k --zoneskip=2z", want: ioengine.StridedZones{Size: 256 << 10, Range: 256 << 10, Skip: 512 << 10}},
		{cmd: "--zonemode=strided --zonesize=256k --time_based --loops=2", want: ioengine.StridedZones{Size: 256 << 10, Range: 256 << 10}},
		{cmd: "--zonemode=strided --zonesize=256k --rw=randread:4 --percentage_random=50", want: ioengine.StridedZones{Size: 256 << 10, Range: 256 << 10}},
		{cmd: "--zonemode=strided --zonesize=256k --filename=f:g"},
		{cmd: "--zonemode=strided --zonesize=256k --rw=read:8k", viaFio: true},
		{cmd: "--zonemode=none --zonerange=1m"},
		{cmd: "--zonemode=zbd --zonesize=256k", viaFio: true},
		{cmd: "--zonemode=strided --zonesize=256k --loops=2", want: ioengine.StridedZones{Size: 256 << 10, Range: 256 << 10}},
		{cmd: "--zonemode=strided --zonesize=256k --bssplit=4k/50:8k/50", want: ioengine.StridedZones{Size: 256 << 10, Range: 256 << 10}},
		{cmd: "--zonemode=strided --zonesize=256k --zonerange=8m", viaFio: true},
		{cmd: "--zonesize=256k", refused: "zonemode=none and zonesize are not compatible"},
		{cmd: "--zonemode=strided --zonerange=1m", refused: "zonemode=strided needs zonesize"},
		{cmd: "--zonemode=strided --zonesize=256k --zoneskip=xz", refused: "a count of zones"},
	}
	for _, c := range cases {
		run, err := runOf(t, base+c.cmd)
		switch {
		case c.refused != "":
			if err == nil || !strings.Contains(err.Error(), c.refused) || strings.Contains(err.Error(), "\n") {
				t.Errorf("%s: %v; want one line saying %q", c.cmd, err, c.refused)
			}
			continue
		case c.viaFio:
			if !errors.Is(err, fio.ErrUnsupported) || len(run.Unsupported) == 0 || run.Workload.Zones.On() {
				t.Errorf("%s: %v, not run %v, zones %+v; want every zone option through fio", c.cmd, err, run.Unsupported, run.Workload.Zones)
			}
			for _, o := range run.Unsupported {
				if !strings.HasPrefix(o.Key, "zone") {
					t.Errorf("%s: %s through fio; want only the zone options", c.cmd, o.Key)
				}
			}
			continue
		case err != nil:
			t.Errorf("%s: %v", c.cmd, err)
			continue
		case run.Workload.Zones != c.want:
			t.Errorf("%s: zones %+v, want %+v", c.cmd, run.Workload.Zones, c.want)
		}
		var b bytes.Buffer
		if err := fioadapt.WriteJobFileEngine(&b, run.Workload, time.Second, 0, "psync"); err != nil {
			t.Fatal(err)
		}
		jf, err := fio.ParseJobFile(strings.NewReader(b.String()))
		if err != nil {
			t.Fatal(err)
		}
		if back, err := fioadapt.Runs(jf); err != nil || back[0].Workload.Zones != run.Workload.Zones {
			t.Errorf("%s: written and read back: %v, %+v; want %+v\n%s", c.cmd, err, back, run.Workload.Zones, b.String())
		}
	}
}

package sweep

import (
	"strings"
	"testing"
)

func FuzzParsePointsCSV(f *testing.F) {
	for _, s := range []string{
		"iodepth,numjobs,iops,lat_mean_us\n1,1,20000,50\n2,1,38000,53\n",
		"iodepth,iops,lat_mean_us,p50_us,p90_us,p99_us,p999_us\n4,70000,57,50,70,120,300\n",
		"qd,iops,lat_mean_ns,failed\n8,110000,73000,\n16,0,0,EIO\n",
		"iodepth,iops\n1,2\n",
		"iodepth,iops,lat_mean_us\n\"1\n,2,3\n",
		"\ufeffiodepth,iops,lat_mean_us\n1e3,1,1\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		pts, err := parsePointsCSV(strings.NewReader(s))
		if err != nil {
			if len(pts) != 0 {
				t.Fatalf("points %v returned with error %v", pts, err)
			}
			return
		}
		for _, p := range pts {
			if !(p.QD > 0) || !(p.IOPS > 0) || !(p.LatMeanNs > 0) {
				t.Fatalf("accepted an unusable point %+v from %q", p, s)
			}
		}
	})
}

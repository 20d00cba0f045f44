//go:build linux

package ioengine_test

import (
	"context"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/ioengine"
)

// TestArrivalLatency runs Poisson arrivals (fio's rate_process=poisson) on
// every engine and reads both latencies of each I/O: from its issue (as
// fio's clat and lat) and from its scheduled arrival (the response time an
// application sees, Stats.Arrival). Offered far more than the engine
// completes, arrivals queue for a free slot ever longer: the response time
// grows with the time the run lasts while the latency from issue does not.
// Offered a load it keeps up with, the two agree within a wake-up's delay.
func TestArrivalLatency(t *testing.T) {
	path := fastFile(t, "arrivals", 16<<20)
	run := func(t *testing.T, eng string, rate float64, runtime time.Duration) *ioengine.Stats {
		t.Helper()
		w := ioengine.Workload{Filename: path, RW: ioengine.RandRead, BS: 4096, IODepth: depthFor(eng, 4), NumJobs: 1, Direct: true,
			RandSeed: 3, RateIOPS: [2]float64{rate, 0}, Poisson: true}
		st, err := mustEngine(t, eng).Run(context.Background(), w, ioengine.Control{Runtime: runtime})
		if err != nil {
			t.Fatal(err)
		}
		if st.Arrival == nil {
			t.Fatalf("%s at %.0f IOPS offered: no response time measured", eng, rate)
		}
		return st
	}
	for _, eng := range engines {
		t.Run(eng, func(t *testing.T) {
			// Behind: 10M IOPS offered, a few hundred thousand done.
			short, long := run(t, eng, 1e7, 200*time.Millisecond), run(t, eng, 1e7, 600*time.Millisecond)
			t.Logf("behind: 200 ms: %.0f IOPS, issue p50 %d ns, response mean %.1f ms, max %.1f ms; 600 ms: %.0f IOPS, issue p50 %d ns, response mean %.1f ms, max %.1f ms",
				short.All.IOPS, short.All.Lat.P50Ns, short.Arrival.MeanNs/1e6, float64(short.Arrival.MaxNs)/1e6,
				long.All.IOPS, long.All.Lat.P50Ns, long.Arrival.MeanNs/1e6, float64(long.Arrival.MaxNs)/1e6)
			// The last arrivals waited about as long as the run lasted (a mean
			// weighs the completions, which a starved CPU bunches early).
			if long.Arrival.MaxNs < 2*short.Arrival.MaxNs || short.Arrival.MaxNs < int64(100*time.Millisecond) {
				t.Errorf("response max %.1f ms over 600 ms against %.1f ms over 200 ms: the queue of arrivals should grow with time",
					float64(long.Arrival.MaxNs)/1e6, float64(short.Arrival.MaxNs)/1e6)
			}
			if short.Arrival.MeanNs < 20e6 || short.All.Lat.MeanNs > short.Arrival.MeanNs/20 {
				t.Errorf("behind by 200 ms: response mean %.1f ms, issue mean %.3f ms: want the wait in the response time only",
					short.Arrival.MeanNs/1e6, short.All.Lat.MeanNs/1e6)
			}
			if p := max(short.All.Lat.P50Ns, 20_000); long.All.Lat.P50Ns > 5*p {
				t.Errorf("issue p50 %d ns over 600 ms against %d ns over 200 ms: latency from issue should not grow with time", long.All.Lat.P50Ns, short.All.Lat.P50Ns)
			}
			// Kept up: 200 IOPS offered.
			low := run(t, eng, 200, 500*time.Millisecond)
			diff := low.Arrival.P50Ns - low.All.Lat.P50Ns
			t.Logf("kept up: %.0f IOPS, issue p50 %d ns, response p50 %d ns", low.All.IOPS, low.All.Lat.P50Ns, low.Arrival.P50Ns)
			if diff < 0 || diff > int64(2*time.Millisecond) {
				t.Errorf("kept up: response p50 %d ns against issue p50 %d ns: want them within a wake-up's delay (0..2 ms)", low.Arrival.P50Ns, low.All.Lat.P50Ns)
			}
		})
	}
}

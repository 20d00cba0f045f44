package littleslaw

import "math"

// GCP's published Hyperdisk queue-depth guidance ("Use a high I/O queue
// depth", https://cloud.google.com/compute/docs/disks/optimize-hyperdisk)
// assumes 16 KiB I/O and a slight overestimate of latency, 2 ms.
const (
	// GCPTableBS is the I/O size the table assumes, bytes.
	GCPTableBS = 16 << 10
	// GCPTableLatNs is the latency the table assumes, nanoseconds: the top
	// of the Hyperdisk presets' planning range (Preset.LatHighNs), a test
	// holds them equal.
	GCPTableLatNs = 2 * ms
)

// TableRow is one row of a queue-depth table: a target and the queue depth
// Little's Law gives for it.
type TableRow struct {
	IOPS        float64 `json:"iops"`                   // target I/Os per second
	BWBytes     float64 `json:"bw_bytes,omitempty"`     // target bytes per second (throughput rows)
	QueueDepth  int     `json:"queue_depth"`            // recommended I/Os in flight
	ExactQD     float64 `json:"exact_qd"`               // IOPS × latency before rounding
	IsBandwidth bool    `json:"is_bandwidth,omitempty"` // the row's target is a throughput
}

// gcpIOPSTargets and gcpMiBpsTargets are the rows GCP publishes.
var (
	gcpIOPSTargets  = []float64{500, 1000, 2000, 4000, 8000, 16000, 32000, 64000, 100000, 200000, 320000}
	gcpMiBpsTargets = []float64{8, 128, 1000, 1200}
)

// GCPQueueDepthTable regenerates GCP's Hyperdisk queue-depth table from
// Little's Law: QD = IOPS × 2 ms, with throughput rows converted to IOPS at
// 16 KiB per I/O. Like the published table it truncates to a whole number
// (1,200 MiB/s → 153.6 → 153), never below 1.
func GCPQueueDepthTable() []TableRow {
	var rows []TableRow
	for _, t := range gcpIOPSTargets {
		q := QueueDepth(t, GCPTableLatNs)
		rows = append(rows, TableRow{IOPS: t, QueueDepth: truncQD(q), ExactQD: q})
	}
	for _, m := range gcpMiBpsTargets {
		bw := m * mib
		x := ThroughputIOPS(bw, GCPTableBS)
		q := QueueDepth(x, GCPTableLatNs)
		rows = append(rows, TableRow{IOPS: x, BWBytes: bw, QueueDepth: truncQD(q), ExactQD: q, IsBandwidth: true})
	}
	return rows
}

// truncQD truncates a queue depth, forgiving float noise, with a floor of 1.
func truncQD(q float64) int {
	v := int(math.Floor(q + 1e-9*q))
	if v < 1 {
		return 1
	}
	return v
}

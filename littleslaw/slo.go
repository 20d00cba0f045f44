package littleslaw

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// ErrBadSLO is wrapped by ParseSLO for any malformed objective.
var ErrBadSLO = errors.New("bad latency SLO")

// SLO is a latency objective: Stat (mean, p50, p90, p99 or p999) must stay
// at or below LimitNs nanoseconds.
type SLO struct {
	Stat    string  `json:"stat"`
	LimitNs float64 `json:"limit_ns"`
}

// SLOStats lists the statistics an SLO may name.
var SLOStats = []string{"mean", "p50", "p90", "p99", "p999"}

// ParseSLO parses "STAT=DURATION", e.g. "p99=5ms", "mean=800us",
// "p999=20ms". The duration needs a unit. Errors wrap ErrBadSLO.
func ParseSLO(s string) (SLO, error) {
	stat, lim, ok := strings.Cut(strings.TrimSpace(s), "=")
	if !ok {
		return SLO{}, fmt.Errorf("%w: %q is not STAT=LATENCY (use e.g. p99=5ms)", ErrBadSLO, s)
	}
	stat = strings.ToLower(strings.TrimSpace(stat))
	switch stat {
	case "mean", "p50", "p90", "p99", "p999":
	case "p99.9":
		stat = "p999"
	case "avg":
		stat = "mean"
	default:
		return SLO{}, fmt.Errorf("%w: unknown statistic %q (use one of %s)", ErrBadSLO, stat, strings.Join(SLOStats, ", "))
	}
	lim = strings.ReplaceAll(strings.TrimSpace(lim), "µ", "u")
	d, err := time.ParseDuration(lim)
	if err != nil {
		return SLO{}, fmt.Errorf("%w: latency %q needs a unit (use e.g. %s=5ms)", ErrBadSLO, lim, stat)
	}
	if d <= 0 {
		return SLO{}, fmt.Errorf("%w: latency %q must be positive (use e.g. %s=5ms)", ErrBadSLO, lim, stat)
	}
	return SLO{Stat: stat, LimitNs: float64(d)}, nil
}

// String formats the objective as ParseSLO reads it, e.g. "p99=5ms".
func (s SLO) String() string {
	return s.Stat + "=" + time.Duration(s.LimitNs).String()
}

// StatNs returns point p's value of stat (mean, p50, p90, p99 or p999) in
// nanoseconds (0 when unknown).
func StatNs(p Point, stat string) float64 { return statNs(p, stat) }

// responseNs is r's value of stat (the response-time twin of statNs).
func responseNs(r Response, stat string) float64 {
	switch stat {
	case "mean":
		return r.MeanNs
	case "p50":
		return r.P50Ns
	case "p90":
		return r.P90Ns
	case "p99":
		return r.P99Ns
	case "p999":
		return r.P999Ns
	}
	return 0
}

// statNs returns point p's value of stat in nanoseconds (0 when unknown).
func statNs(p Point, stat string) float64 {
	if r := p.Response; r != nil && p.OfferedIOPS > 0 {
		return responseNs(*r, stat)
	}
	switch stat {
	case "mean":
		return p.LatMeanNs
	case "p50":
		return p.P50Ns
	case "p90":
		return p.P90Ns
	case "p99":
		return p.P99Ns
	case "p999":
		return p.P999Ns
	}
	return 0
}

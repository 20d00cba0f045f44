package littleslaw

import (
	"fmt"
	"math"
	"strconv"
)

// Vendor documentation each setting follows.
const (
	DocHikariPoolSizing = "https://github.com/brettwooldridge/HikariCP/wiki/About-Pool-Sizing"
	DocPGAsync          = "https://www.postgresql.org/docs/current/runtime-config-resource.html#RUNTIME-CONFIG-RESOURCE-ASYNC-BEHAVIOR"
	DocPGIOMethod       = "https://www.postgresql.org/docs/current/runtime-config-resource.html#GUC-IO-METHOD"
	DocMySQLIOCapacity  = "https://dev.mysql.com/doc/refman/8.4/en/innodb-configuring-io-capacity.html"
	DocMySQLIOThreads   = "https://dev.mysql.com/doc/refman/8.4/en/innodb-performance-multiple_io_threads.html"
)

// Limits the vendors document for these settings.
const (
	pgMaxIOConcurrency = 1000 // effective_io_concurrency, maintenance_io_concurrency: 0–1000
	pgMaxIOWorkers     = 32   // io_workers: 1–32
	mysqlMinIOThreads  = 4    // default innodb_write_io_threads
	mysqlMaxIOThreads  = 64   // innodb_*_io_threads: 1–64
	mysqlPendingPer    = 64   // "more than 64 × innodb_read_io_threads pending reads" → add threads
	mysqlMinIOCapacity = 100  // innodb_io_capacity ≥ 100
)

// settingsFor returns the settings for o.For from the curve's useful
// parallelism (the saturation QD, or the deepest measured QD when it did
// not saturate) and its highest IOPS.
func settingsFor(kind string, parallel, xmax float64, cpus int) []Setting {
	n := int(math.Ceil(parallel))
	if n < 1 {
		n = 1
	}
	pool := Setting{Name: "connection pool size", Doc: DocHikariPoolSizing}
	if cpus > 0 {
		pool.Value = strconv.Itoa(cpus*2 + n)
		pool.Formula = fmt.Sprintf("HikariCP: cores × 2 + effective spindles = %d × 2 + %d, spindles = saturation QD; more connections add queueing only", cpus, n)
	} else {
		pool.Value = fmt.Sprintf("cores × 2 + %d", n)
		pool.Formula = fmt.Sprintf("HikariCP: cores × 2 + effective spindles, spindles = saturation QD %d (CPU count unknown)", n)
	}
	switch kind {
	case "workers":
		return []Setting{
			{Name: "max useful workers", Value: strconv.Itoa(n), Doc: DocHikariPoolSizing,
				Formula: fmt.Sprintf("a worker doing one synchronous I/O at a time keeps one in flight (Little's Law), so workers = saturation QD = %d; more add latency only; divide by the fraction of each request spent waiting on disk when requests also compute", n)},
			pool,
		}
	case "postgres":
		c := min(n, pgMaxIOConcurrency)
		out := []Setting{
			{Name: "effective_io_concurrency", Value: strconv.Itoa(c), Doc: DocPGAsync,
				Formula: fmt.Sprintf("the I/Os one session keeps in flight: saturation QD %d (allowed 0–%d)", n, pgMaxIOConcurrency)},
			{Name: "maintenance_io_concurrency", Value: strconv.Itoa(c), Doc: DocPGAsync,
				Formula: fmt.Sprintf("the same depth for maintenance work: saturation QD %d; lower it when many autovacuum workers run at once", n)},
		}
		if n > pgMaxIOWorkers {
			out = append(out, Setting{Name: "io_method", Value: "io_uring", Doc: DocPGIOMethod,
				Formula: fmt.Sprintf("PostgreSQL 18+: io_workers can keep at most %d I/Os in flight, below the saturation QD %d; io_uring has no such cap", pgMaxIOWorkers, n)})
		} else {
			out = append(out, Setting{Name: "io_method", Value: "worker", Doc: DocPGIOMethod,
				Formula: fmt.Sprintf("PostgreSQL 18+: the default worker method suffices when io_workers covers the saturation QD %d", n)},
				Setting{Name: "io_workers", Value: strconv.Itoa(max(n, 3)), Doc: DocPGIOMethod,
					Formula: fmt.Sprintf("each I/O worker performs one I/O at a time: saturation QD %d (default 3, allowed 1–%d)", n, pgMaxIOWorkers)})
		}
		return append(out, pool)
	case "mysql":
		threads := min(max(int(math.Ceil(float64(n)/mysqlPendingPer)), mysqlMinIOThreads), mysqlMaxIOThreads)
		capMax := max(int(math.Round(xmax)), mysqlMinIOCapacity)
		capBase := max(int(math.Round(xmax/2)), mysqlMinIOCapacity)
		return []Setting{
			{Name: "innodb_io_capacity", Value: strconv.Itoa(capBase), Doc: DocMySQLIOCapacity,
				Formula: fmt.Sprintf("about the IOPS the system can perform, kept as low as practical: half the measured %s IOPS, leaving the rest to foreground reads", fmtCount(xmax))},
			{Name: "innodb_io_capacity_max", Value: strconv.Itoa(capMax), Doc: DocMySQLIOCapacity,
				Formula: fmt.Sprintf("the measured ceiling, %s IOPS", fmtCount(xmax))},
			{Name: "innodb_read_io_threads", Value: strconv.Itoa(threads), Doc: DocMySQLIOThreads,
				Formula: fmt.Sprintf("⌈saturation QD %d / %d pending per thread⌉, within %d–%d", n, mysqlPendingPer, mysqlMinIOThreads, mysqlMaxIOThreads)},
			{Name: "innodb_write_io_threads", Value: strconv.Itoa(threads), Doc: DocMySQLIOThreads,
				Formula: fmt.Sprintf("⌈saturation QD %d / %d pending per thread⌉, within %d–%d", n, mysqlPendingPer, mysqlMinIOThreads, mysqlMaxIOThreads)},
			pool,
		}
	}
	return nil
}

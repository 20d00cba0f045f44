package littleslaw

import (
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
	pool := Setting{Name: "connection pool size", Rule: SettingPool, SaturationQD: n, CPUs: cpus, Doc: DocHikariPoolSizing}
	if cpus > 0 {
		pool.Value = strconv.Itoa(cpus*2 + n)
	}
	switch kind {
	case "workers":
		return []Setting{
			{Name: "max useful workers", Value: strconv.Itoa(n), Rule: SettingWorkers, SaturationQD: n, Doc: DocHikariPoolSizing},
			pool,
		}
	case "postgres":
		c := min(n, pgMaxIOConcurrency)
		out := []Setting{
			{Name: "effective_io_concurrency", Value: strconv.Itoa(c), Rule: SettingPGIOConcurrency, SaturationQD: n, Max: pgMaxIOConcurrency, Doc: DocPGAsync},
			{Name: "maintenance_io_concurrency", Value: strconv.Itoa(c), Rule: SettingPGMaintenance, SaturationQD: n, Max: pgMaxIOConcurrency, Doc: DocPGAsync},
		}
		if n > pgMaxIOWorkers {
			out = append(out, Setting{Name: "io_method", Value: "io_uring", Rule: SettingPGIOUring, SaturationQD: n, Max: pgMaxIOWorkers, Doc: DocPGIOMethod})
		} else {
			out = append(out, Setting{Name: "io_method", Value: "worker", Rule: SettingPGWorker, SaturationQD: n, Doc: DocPGIOMethod},
				Setting{Name: "io_workers", Value: strconv.Itoa(max(n, 3)), Rule: SettingPGIOWorkers, SaturationQD: n, Max: pgMaxIOWorkers, Doc: DocPGIOMethod})
		}
		return append(out, pool)
	case "mysql":
		threads := min(max(int(math.Ceil(float64(n)/mysqlPendingPer)), mysqlMinIOThreads), mysqlMaxIOThreads)
		capMax := max(int(math.Round(xmax)), mysqlMinIOCapacity)
		capBase := max(int(math.Round(xmax/2)), mysqlMinIOCapacity)
		th := func(name string) Setting {
			return Setting{Name: name, Value: strconv.Itoa(threads), Rule: SettingMySQLIOThreads, SaturationQD: n,
				PerThread: mysqlPendingPer, Min: mysqlMinIOThreads, Max: mysqlMaxIOThreads, Doc: DocMySQLIOThreads}
		}
		return []Setting{
			{Name: "innodb_io_capacity", Value: strconv.Itoa(capBase), Rule: SettingMySQLIOCapacity, SaturationQD: n, IOPS: xmax, Doc: DocMySQLIOCapacity},
			{Name: "innodb_io_capacity_max", Value: strconv.Itoa(capMax), Rule: SettingMySQLIOCapacityMax, SaturationQD: n, IOPS: xmax, Doc: DocMySQLIOCapacity},
			th("innodb_read_io_threads"),
			th("innodb_write_io_threads"),
			pool,
		}
	}
	return nil
}

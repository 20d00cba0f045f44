package fio_test

import (
	"testing"

	"github.com/qdsweep/qdsweep/fio"
)

// TestEngineAndHiddenOptionsKnown: options of fio 3.33 that its --cmdhelp
// leaves out, or that belong to engines Debian's fio is built without, are
// fio options to qdsweep (refused or run for what they are, never "not a
// fio option"), each engine's option naming its engine.
func TestEngineAndHiddenOptionsKnown(t *testing.T) {
	for name, engine := range map[string]string{
		"http_host": "http", "http_s3_key": "http", "https": "http", "http_mode": "http", "nfs_url": "nfs",
		"gpu_dev_ids": "libcufile", "cuda_io": "libcufile", "xnvme_be": "xnvme", "namenode": "libhdfs",
		"serverip": "librpma_apm_client", "port": "librpma_gpspm_server", "pool": "dfs", "thp": "mmap",
		"dedupe_working_set_percentage": "", "gpu_dev_id": "", "softrandommap": "", "ratemin": "", "log_prio": "",
		"allow_file_create": "", "kb_base": "", "percentage_sequential": "",
	} {
		if fio.OptionHandling(name) == fio.Unknown {
			t.Errorf("%s: not known", name)
		}
		engines := fio.OptionEngines(name)
		found := engine == "" && len(engines) == 0
		for _, e := range engines {
			found = found || e == engine
		}
		if !found {
			t.Errorf("%s: engines %v, want %q", name, engines, engine)
		}
	}
	for name, h := range map[string]fio.Handling{"ratemin": fio.Honoured, "thinktime": fio.Honoured, "latency_target": fio.Honoured, "log_prio": fio.Honoured, "kb_base": fio.Honoured,
		"allow_file_create": fio.Honoured, "write_iops_log": fio.Honoured, "rwmixcycle": fio.Unsupported} {
		if got := fio.OptionHandling(name); got != h {
			t.Errorf("%s: handling %d, want %d", name, got, h)
		}
	}
}

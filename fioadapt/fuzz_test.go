package fioadapt_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/fioadapt"
)

func FuzzParseJobFile(f *testing.F) {
	for _, name := range []string{"sweep.fio", "cs.fio"} {
		b, err := os.ReadFile(filepath.Join(fioTestdata, name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("[global]\nbs=4k,8k\n[a]\nrw=randrw\nrwmixwrite=30\n[b]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		jf, err := fio.ParseJobFile(bytes.NewReader(data))
		if err != nil {
			return
		}
		runs, err := fioadapt.Runs(jf)
		if err != nil {
			return
		}
		for _, r := range runs {
			if w := r.Workload; w.IODepth < 1 || w.NumJobs < 1 || w.BS < 1 || w.RWMixRead < 0 || w.RWMixRead > 100 {
				t.Fatalf("run %q: invalid workload %+v", r.Name, w)
			}
		}
	})
}

// FuzzParseArgs reads fio command lines: never a panic, and every run it
// accepts is one qdsweep can run.
func FuzzParseArgs(f *testing.F) {
	f.Add("--directory=/node --name fio_test_file --direct=1 --rw=randread --bs=4K --size=1G --numjobs=16 --time_based --runtime=180 --group_reporting --norandommap")
	f.Add("--name=w --filename=/dev/sdb --filesize=2500G --time_based --ramp_time=2s --runtime=1m --ioengine=libaio --verify=0 --randrepeat=0 --iodepth_batch_submit=256")
	f.Add("--name a --readwrite randrw --blocksize 8k --loops=3 --startdelay=2 --end_fsync=1 --rate_iops=5 --filename=a\\:b:c")
	f.Fuzz(func(t *testing.T, line string) {
		jf, _, err := fio.ParseArgs(strings.Fields(line))
		if err != nil {
			return
		}
		if len(jf.Jobs) == 0 {
			jf.Jobs = []fio.JobSpec{{Options: jf.Global}}
			jf.Global = nil
		}
		runs, err := fioadapt.Runs(jf)
		if err != nil {
			return
		}
		for _, r := range runs {
			w := r.Workload
			if w.IODepth < 1 || w.NumJobs < 1 || w.BS < 1 || w.RWMixRead < 0 || w.RWMixRead > 100 || r.Loops < 1 || r.IOSize < 0 {
				t.Fatalf("run %q: invalid %+v", r.Name, r)
			}
			if len(w.JobFiles) == 0 && len(r.Files) > 0 && w.Filename != r.Files[0] {
				t.Fatalf("run %q: filename %q, files %q", r.Name, w.Filename, r.Files)
			}
		}
	})
}

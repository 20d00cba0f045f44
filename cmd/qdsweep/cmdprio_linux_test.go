package main

import (
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/fio"
)

// prioCount is what one tool's run says of its I/Os' priorities: the
// JSON's per-priority counts ("prios": "read 1/0" → N) and the latency
// log's (its direction and log_prio's last column → lines), and each
// direction's I/Os.
type prioCount struct {
	json  map[string]int64
	log   map[string]int64
	total map[string]int64
}

// runPrioJob runs job (a job file's text, its file named by %f) under bin
// (fio, or qdsweep run) in a directory of its own with a 16 MiB file, and
// reads back its JSON and its clat log.
func runPrioJob(t *testing.T, bin string, args []string, job string) prioCount {
	t.Helper()
	dir := t.TempDir()
	f := filepath.Join(dir, "file")
	if err := os.WriteFile(f, make([]byte, 16<<20), 0o600); err != nil {
		t.Fatal(err)
	}
	jobPath := filepath.Join(dir, "job.fio")
	if err := os.WriteFile(jobPath, []byte(strings.ReplaceAll(job, "%f", f)), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, append(args, "--output-format=json", jobPath)...)
	cmd.Dir = dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	killNaming(jobPath)
	if err != nil {
		t.Fatalf("%s: %v\n%s", filepath.Base(bin), err, stderr.String())
	}
	outs, err := fio.ParseJSON(strings.NewReader(stdout.String()))
	if err != nil {
		t.Fatalf("%s's JSON: %v", filepath.Base(bin), err)
	}
	c := prioCount{json: map[string]int64{}, log: map[string]int64{}, total: map[string]int64{}}
	j := fio.Final(outs)[0].Jobs[0]
	for dir, d := range map[string]*fio.Dir{"read": j.Read, "write": j.Write} {
		c.total[dir] = d.TotalIOs
		for _, p := range d.Prios {
			c.json[fmt.Sprintf("%s %d/%d", dir, p.Class, p.Level)] = p.Clat.N
		}
	}
	logs, _ := filepath.Glob(filepath.Join(dir, "prio_clat*.log"))
	for _, l := range logs {
		b, err := os.ReadFile(l)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			fs := strings.Split(line, ", ")
			var v uint16
			if _, err := fmt.Sscanf(fs[len(fs)-1], "0x%04x", &v); err != nil {
				t.Fatalf("%s: log line %q: no log_prio column", filepath.Base(bin), line)
			}
			c.log[fmt.Sprintf("%s %d/%d", map[string]string{"0": "read", "1": "write"}[fs[2]], v>>13, v&7)]++
		}
	}
	return c
}

// TestCmdPrioAgainstFio runs the same job files under fio 3.33 and
// natively under qdsweep run, io_uring and libaio: 4096 random 4k reads
// with cmdprio_percentage=20 (the job idle, as fio's cmdprio-percentage
// example), with cmdprio_bssplit's advanced form (4k reads a quarter
// real-time level 1, three quarters idle level 2, 16k at the job's
// best-effort level 7, as cmdprio-bssplit's cmdprio-adv-def), and 4096
// random reads and writes with a percentage, class and level for each
// direction (10% of reads 1/0, 40% of writes 2/5). Each tool's
// JSON lists the same priorities, its log's log_prio column counts what
// its JSON counts, and each priority's share of the reads is the setting's
// within 5 binomial standard deviations, in either tool, and the two
// tools' shares within 5 of their difference's.
func TestCmdPrioAgainstFio(t *testing.T) {
	fioBin, err := exec.LookPath("fio")
	if err != nil {
		t.Skip("fio is not installed")
	}
	qd := sweepBinary(t)
	const common = "[global]\nfilename=%f\nsize=16m\nio_size=1g\ndirect=1\niodepth=8\nnorandommap\nnumber_ios=4096\nrandrepeat=0\n" +
		"write_lat_log=prio\nlog_prio=1\n"
	for _, c := range []struct {
		name, job string
		share     map[string]float64 // of all the direction's I/Os
	}{
		{"percentage", "rw=randread\nprioclass=3\ncmdprio_percentage=20\ncmdprio_class=1\n", map[string]float64{"read 1/0": 0.2, "read 3/0": 0.8}},
		{"bssplit", "rw=randread\nprioclass=2\nprio=7\nbssplit=4k/50:16k/50\ncmdprio_bssplit=4k/25/1/1:4k/75/3/2:16k/0\n",
			map[string]float64{"read 2/7": 0.5, "read 1/1": 0.125, "read 3/2": 0.375}},
		{"per direction", "rw=randrw\ncmdprio_percentage=10,40\ncmdprio_class=1,2\ncmdprio=0,5\n",
			map[string]float64{"read 0/0": 0.9, "read 1/0": 0.1, "write 0/0": 0.6, "write 2/5": 0.4}},
	} {
		for _, eng := range []string{"io_uring", "libaio"} {
			t.Run(c.name+"/"+eng, func(t *testing.T) {
				job := common + "[j]\nioengine=" + eng + "\n" + c.job
				f := runPrioJob(t, fioBin, nil, job)
				q := runPrioJob(t, qd, []string{"run", "--allow-write"}, job)
				for tool, got := range map[string]prioCount{"fio": f, "qdsweep": q} {
					if len(got.json) != len(c.share) {
						t.Errorf("%s's JSON has priorities %v, want %v", tool, got.json, c.share)
					}
					if fmt.Sprint(got.json) != fmt.Sprint(got.log) {
						t.Errorf("%s: JSON counts %v, its log_prio column %v", tool, got.json, got.log)
					}
					for k, p := range c.share {
						n := float64(got.total[strings.Fields(k)[0]])
						if d := math.Abs(float64(got.json[k]) - p*n); d > 5*math.Sqrt(n*p*(1-p))+1 {
							t.Errorf("%s: %d of %.0f I/Os at %s, want %.0f ± %.0f", tool, got.json[k], n, k, p*n, 5*math.Sqrt(n*p*(1-p)))
						}
					}
				}
				for k, p := range c.share {
					fn, qn := float64(f.total[strings.Fields(k)[0]]), float64(q.total[strings.Fields(k)[0]])
					fs, qs := float64(f.json[k])/fn, float64(q.json[k])/qn
					if sd := math.Sqrt(p * (1 - p) * (1/fn + 1/qn)); math.Abs(fs-qs) > 5*sd {
						t.Errorf("%s: qdsweep's share %.4f, fio's %.4f: more than 5 × %.4f apart", k, qs, fs, sd)
					}
					t.Logf("%s: qdsweep %d of %.0f (%.2f%%), fio %d of %.0f (%.2f%%), setting %.1f%%", k, q.json[k], qn, 100*qs, f.json[k], fn, 100*fs, 100*p)
				}
			})
		}
	}
}

package main

import (
	"crypto/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestViaFioEndsAsFio runs size-based jobs that go through fio (an option
// qdsweep does not run natively) under fio 3.33 and under qdsweep run, and
// compares the bytes each moved: fio ends a loop itself, at its region's
// end or where a zoned job's zones run out, and runs its loops. qdsweep
// used to hand fio an io_size of every loop's bytes, which carried a
// strided job with bssplit on past its zones (1,036 KiB against fio's 272).
func TestViaFioEndsAsFio(t *testing.T) {
	fioBin := fioOrSkip(t)
	bin := sweepBinary(t)
	dir := t.TempDir()
	data := make([]byte, 4<<20)
	rand.Read(data)
	common := []string{"--name=j", "--filename=g", "--size=1m", "--bs=4k", "--output-format=terse"}
	for _, c := range []string{
		"--rw=read --bssplit=4k/50:16k/50 --zonemode=strided --zonesize=64k --zonerange=256k --serialize_overlap=1",
		"--rw=read:8k --zonemode=strided --zonesize=32k --zoneskip=8k --loops=3",
		"--rw=randread --loops=2 --serialize_overlap=1 --number_ios=100",
		"--rw=read --loops=3 --serialize_overlap=1 --io_size=512k",
		"--rw=write --offset=256k --serialize_overlap=1",
		"--rw=randrw --numjobs=2 --offset_increment=256k --size=256k --serialize_overlap=1",
	} {
		moved := func(who string, args ...string) int {
			if err := os.WriteFile(filepath.Join(dir, "g"), data, 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(args[0], args[1:]...)
			cmd.Dir = dir
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("%s %s: %v", who, c, err)
			}
			kb := 0
			for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
				f := strings.Split(line, ";")
				if len(f) < 48 || f[0] != "3" {
					continue
				}
				r, _ := strconv.Atoi(f[5])
				w, _ := strconv.Atoi(f[46])
				kb += r + w
			}
			return kb
		}
		args := append(append([]string{}, common...), strings.Fields(c)...)
		f := moved("fio", append([]string{fioBin}, args...)...)
		q := moved("qdsweep", append([]string{bin, "run", "--allow-write"}, args...)...)
		if f == 0 || f != q {
			t.Errorf("%s: fio moved %d KiB, qdsweep through fio %d", c, f, q)
		}
	}
}

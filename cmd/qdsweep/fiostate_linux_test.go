//go:build linux

package main

import (
	"bytes"
	"crypto/rand"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestFioStateFilesStayPrivate: a verify job that runs through fio (by
// --ioengine=fio, or by an option only fio runs) names no file but its
// new target, yet fio 3.33 saves its verify state to
// ./local-<job>-<n>-verify.state, opening that name with O_TRUNC through
// any symlink: a symlink there to a file of 8 MiB left it 192 bytes of
// fio's state, and a file of that name was overwritten in place. Every
// fio run now keeps such state in a directory of its own, removed after
// it: the file behind the symlink and the file of that name keep their
// bytes, and nothing of the directory is left.
func TestFioStateFilesStayPrivate(t *testing.T) {
	fioOrSkip(t)
	bin := sweepBinary(t)
	for _, c := range []struct {
		name string
		args []string
		job  string
	}{
		{"ioengine=fio", []string{"run", "--ioengine=fio", "--name=j", "--rw=write", "--verify=crc32c", "--filename=new.dat", "--size=1m"}, ""},
		{"fio-only option", []string{"run", "j.fio"}, "[j]\nrw=randwrite\nfilename=new.dat\nsize=1m\nserialize_overlap=1\nverify=md5\n"},
	} {
		for _, link := range []bool{true, false} {
			dir, tmp := t.TempDir(), t.TempDir()
			victim := make([]byte, 8<<20)
			rand.Read(victim)
			state := filepath.Join(dir, "local-j-0-verify.state")
			if err := os.WriteFile(filepath.Join(dir, "victim"), victim, 0o644); err != nil {
				t.Fatal(err)
			}
			if link {
				if err := os.Symlink("victim", state); err != nil {
					t.Fatal(err)
				}
			} else if err := os.WriteFile(state, victim, 0o644); err != nil {
				t.Fatal(err)
			}
			if c.job != "" {
				if err := os.WriteFile(filepath.Join(dir, "j.fio"), []byte(c.job), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			cmd := exec.Command(bin, c.args...)
			cmd.Dir, cmd.Env = dir, append(os.Environ(), "TMPDIR="+tmp)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("%s: %v\n%s", c.name, err, out)
			}
			for _, name := range []string{"victim", "local-j-0-verify.state"} {
				if b, err := os.ReadFile(filepath.Join(dir, name)); err != nil || !bytes.Equal(b, victim) {
					t.Errorf("%s (state name a symlink: %v): %s holds %d bytes, not its own 8 MiB (%v)", c.name, link, name, len(b), err)
				}
			}
			if left, _ := os.ReadDir(tmp); len(left) != 0 {
				t.Errorf("%s: fio's state directory left behind: %v", c.name, left)
			}
		}
	}
}

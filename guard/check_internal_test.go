//go:build linux

package guard

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/qdsweep/qdsweep/device"
	"github.com/qdsweep/qdsweep/internal/looptest"
)

func TestParseMountinfo(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    []mountEntry
		wantErr bool
	}{
		{"empty", "", nil, false},
		{"root and proc",
			"22 27 0:21 / /proc rw,relatime - proc proc rw\n" +
				"27 1 253:1 / / rw,relatime shared:1 - ext4 /dev/vda rw\n",
			[]mountEntry{{dev: "0:21", point: "/proc", source: "proc", fstype: "proc", super: "rw"}, {dev: "253:1", point: "/", source: "/dev/vda", fstype: "ext4", super: "rw"}}, false},
		{"several optional fields",
			"40 27 7:3 / /mnt/a rw shared:5 master:2 unbindable - xfs /dev/loop3 rw\n",
			[]mountEntry{{dev: "7:3", point: "/mnt/a", source: "/dev/loop3", fstype: "xfs", super: "rw"}}, false},
		{"escaped space and backslash",
			`41 27 7:4 / /mnt/my\040disk rw - ext4 /dev/disk/by-label/a\134b rw` + "\n",
			[]mountEntry{{dev: "7:4", point: "/mnt/my disk", source: `/dev/disk/by-label/a\b`, fstype: "ext4", super: "rw"}}, false},
		{"blank lines skipped", "\n22 27 0:21 / /proc rw - proc proc rw\n\n",
			[]mountEntry{{dev: "0:21", point: "/proc", source: "proc", fstype: "proc", super: "rw"}}, false},
		{"overlay layers", "44 27 0:39 / /m rw - overlay overlay rw,lowerdir=/l1:/l2,upperdir=/u,workdir=/w\n",
			[]mountEntry{{dev: "0:39", point: "/m", source: "overlay", fstype: "overlay", super: "rw,lowerdir=/l1:/l2,upperdir=/u,workdir=/w"}}, false},
		{"no separator", "22 27 0:21 / /proc rw proc proc rw\n", nil, true},
		{"too short", "22 27 0:21 /\n", nil, true},
		{"bad device field", "22 27 021 / /proc rw - proc proc rw\n", nil, true},
		{"nothing after separator", "22 27 0:21 / /proc rw - proc\n", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseMountinfo(strings.NewReader(tt.in))
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if !tt.wantErr && !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestParseSwaps(t *testing.T) {
	in := "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n" +
		"/dev/dm-1                               partition\t8388604\t\t0\t\t-2\n" +
		`/var/swap\040file                       file		1048572		0		-3` + "\n"
	got, err := parseSwaps(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"/dev/dm-1", "/var/swap file"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	if got, _ := parseSwaps(strings.NewReader("Filename Type Size Used Priority\n")); len(got) != 0 {
		t.Errorf("header only: got %q", got)
	}
}

func FuzzParseMountinfo(f *testing.F) {
	f.Add("22 27 0:21 / /proc rw,relatime - proc proc rw\n")
	f.Add("40 27 7:3 / /mnt/a rw shared:5 master:2 - xfs /dev/loop3 rw\n")
	f.Add(`41 27 7:4 / /mnt/my\040disk rw - ext4 /dev/x\13 rw`)
	f.Add("- - - - - - - -\n")
	f.Fuzz(func(t *testing.T, s string) {
		ms, err := parseMountinfo(strings.NewReader(s))
		if err != nil {
			return
		}
		for _, m := range ms {
			if !strings.Contains(m.dev, ":") {
				t.Fatalf("device %q has no colon", m.dev)
			}
		}
	})
}

func FuzzParseSwaps(f *testing.F) {
	f.Add("Filename Type Size Used Priority\n/dev/sda2 partition 100 0 -2\n")
	f.Add(`/swap\040file file 1 0 -1`)
	f.Add(`\`)
	f.Fuzz(func(t *testing.T, s string) {
		names, err := parseSwaps(strings.NewReader(s))
		if err != nil {
			return
		}
		for _, n := range names {
			if n == "" {
				t.Fatalf("empty swap name from %q", s)
			}
		}
	})
}

// fixture is a fake /proc and /sys describing one real, blank loop device.
type fixture struct {
	proc, sys string
	dev       string // /dev/loopN
	name      string // loopN
}

func newFixture(t *testing.T) fixture {
	t.Helper()
	looptest.RequireRootTools(t)
	dev := looptest.AttachLoop(t, looptest.MakeImage(t, 4<<20), false)
	var st unix.Stat_t
	if err := unix.Stat(dev, &st); err != nil {
		t.Fatal(err)
	}
	fx := fixture{proc: t.TempDir(), sys: t.TempDir(), dev: dev, name: filepath.Base(dev)}
	fx.write(t, fx.proc, "self/mountinfo", "22 27 0:21 / /proc rw - proc proc rw\n")
	fx.write(t, fx.proc, "swaps", "Filename Type Size Used Priority\n")
	devDir := filepath.Join(fx.sys, "devices", "virtual", "block", fx.name)
	if err := os.MkdirAll(filepath.Join(devDir, "holders"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(fx.sys, "class", "block"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(fx.sys, "dev", "block"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(devDir, filepath.Join(fx.sys, "class", "block", fx.name)); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(devDir, filepath.Join(fx.sys, "dev", "block", devNumber(uint64(st.Rdev)))); err != nil {
		t.Fatal(err)
	}
	return fx
}

func (fx fixture) write(t *testing.T, root, rel, content string) {
	t.Helper()
	p := filepath.Join(root, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestGuardFixtureRoots drives the busy and partition checks through fake
// /proc and /sys trees that describe a real blank loop device as mounted,
// swapped on, held or partitioned.
func TestGuardFixtureRoots(t *testing.T) {
	allow := Permit{AllowWriteDevice: true}
	tests := []struct {
		name  string
		setup func(t *testing.T, fx fixture)
		g     Permit
		want  error
		msg   string
	}{
		{"clean", func(*testing.T, fixture) {}, allow, nil, ""},
		{"mounted by device number", func(t *testing.T, fx fixture) {
			var st unix.Stat_t
			_ = unix.Stat(fx.dev, &st)
			fx.write(t, fx.proc, "self/mountinfo", "50 27 "+devNumber(uint64(st.Rdev))+" / /srv/db rw - ext4 /dev/whatever rw\n")
		}, allow, ErrDeviceBusy, "is mounted at /srv/db"},
		{"mounted by source name (btrfs-style anonymous dev)", func(t *testing.T, fx fixture) {
			fx.write(t, fx.proc, "self/mountinfo", "50 27 0:55 / /data rw - btrfs "+fx.dev+" rw\n")
		}, allow, ErrDeviceBusy, "is mounted at /data"},
		{"swap", func(t *testing.T, fx fixture) {
			fx.write(t, fx.proc, "swaps", "Filename Type Size Used Priority\n"+fx.dev+" partition 4092 0 -2\n")
		}, allow, ErrDeviceBusy, "active swap area"},
		{"held by dm", func(t *testing.T, fx fixture) {
			fx.write(t, fx.sys, "class/block/"+fx.name+"/holders/dm-7", "")
		}, allow, ErrDeviceBusy, "is held by dm-7"},
		{"held, --destroy-data does not help", func(t *testing.T, fx fixture) {
			fx.write(t, fx.sys, "class/block/"+fx.name+"/holders/md0", "")
		}, Permit{AllowWriteDevice: true, DestroyData: "<dev>"}, ErrDeviceBusy, "is held by md0"},
		{"partitioned", func(t *testing.T, fx fixture) {
			fx.write(t, fx.sys, "class/block/"+fx.name+"/"+fx.name+"p1/partition", "1\n")
			fx.write(t, fx.sys, "class/block/"+fx.name+"/"+fx.name+"p1/dev", "259:91\n")
		}, allow, ErrHasPartitions, "has partitions"},
		{"partition mounted", func(t *testing.T, fx fixture) {
			fx.write(t, fx.sys, "class/block/"+fx.name+"/"+fx.name+"p1/partition", "1\n")
			fx.write(t, fx.sys, "class/block/"+fx.name+"/"+fx.name+"p1/dev", "259:91\n")
			fx.write(t, fx.proc, "self/mountinfo", "50 27 259:91 / /boot rw - vfat /dev/foo rw\n")
		}, allow, ErrDeviceBusy, "p1) is mounted at /boot"},
		{"partition held", func(t *testing.T, fx fixture) {
			fx.write(t, fx.sys, "class/block/"+fx.name+"/"+fx.name+"p2/partition", "2\n")
			fx.write(t, fx.sys, "class/block/"+fx.name+"/"+fx.name+"p2/holders/dm-0", "")
		}, allow, ErrDeviceBusy, "p2) is held by dm-0"},
		{"backs a loop device (block backing file)", func(t *testing.T, fx fixture) {
			fx.write(t, fx.sys, "class/block/loop99/loop/backing_file", fx.dev+"\n")
		}, Permit{AllowWriteDevice: true, DestroyData: "<dev>"}, ErrDeviceBusy, "backs loop device /dev/loop99"},
		{"not a partition: no partition file", func(t *testing.T, fx fixture) {
			fx.write(t, fx.sys, "class/block/"+fx.name+"/"+fx.name+"p1/dev", "259:91\n")
		}, allow, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fx := newFixture(t)
			tt.setup(t, fx)
			gd := Checker{Roots: device.Roots{Proc: fx.proc, Sys: fx.sys}}
			g := tt.g
			if g.DestroyData == "<dev>" {
				g.DestroyData = fx.dev
			}
			err := gd.Check(Target{Path: fx.dev, Write: true}, g)
			if tt.want == nil {
				if err != nil {
					t.Fatalf("got %v, want allowed", err)
				}
				return
			}
			if !errors.Is(err, tt.want) || !errors.Is(err, ErrWriteRefused) {
				t.Fatalf("got %v, want %v", err, tt.want)
			}
			if !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("message %q lacks %q", err, tt.msg)
			}
		})
	}
}

// TestGuardFixtureFiles checks that an active swap file and a loop backing
// file are refused even with --allow-write, using fake roots.
func TestGuardFixtureFiles(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "swap file")
	spaced := filepath.Join(dir, "backing ")
	for _, f := range []string{file, spaced, filepath.Join(dir, "backing")} {
		if err := os.WriteFile(f, make([]byte, 4096), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	same := func(f string) string { return f }
	escaped := strings.ReplaceAll(file, " ", `\040`)
	tests := []struct {
		name      string
		path      func(file string) string
		swaps     string
		backing   string
		g         Permit
		want      error
		wantInMsg string
	}{
		{"plain file, --allow-write", same, "", "", Permit{AllowWrite: true}, nil, ""},
		{"swap file", same, escaped + " file 4 0 -2\n", "", Permit{AllowWrite: true}, ErrDeviceBusy, "active swap file"},
		{"loop backing file", same, "", file + "\n", Permit{AllowWrite: true, Ours: []FileID{idOfPath(file)}}, ErrDeviceBusy, "backs loop device /dev/loop9"},
		{"deleted backing file name", same, "", file + " (deleted)\n", Permit{AllowWrite: true}, ErrDeviceBusy, "loop9"},
		{"backing file name ends in a space", func(string) string { return spaced }, "", spaced + "\n", Permit{AllowWrite: true}, ErrDeviceBusy, "loop9"},
		{"a name that differs only by a trailing space is another file", func(string) string { return filepath.Join(dir, "backing") }, "", spaced + "\n", Permit{AllowWrite: true}, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			proc, sys := t.TempDir(), t.TempDir()
			fx := fixture{}
			fx.write(t, proc, "swaps", "Filename Type Size Used Priority\n"+tt.swaps)
			fx.write(t, proc, "self/mountinfo", "22 27 0:21 / /proc rw - proc proc rw\n")
			if tt.backing != "" {
				fx.write(t, sys, "class/block/loop9/loop/backing_file", tt.backing)
			}
			err := Checker{Roots: device.Roots{Proc: proc, Sys: sys}}.Check(Target{Path: tt.path(file), Write: true}, tt.g)
			if tt.want == nil {
				if err != nil {
					t.Fatalf("got %v, want allowed", err)
				}
				return
			}
			if !errors.Is(err, tt.want) || !strings.Contains(err.Error(), tt.wantInMsg) {
				t.Fatalf("got %v, want %v with %q", err, tt.want, tt.wantInMsg)
			}
		})
	}
}

func idOfPath(p string) FileID {
	fi, err := os.Stat(p)
	if err != nil {
		return FileID{}
	}
	return IDOf(fi)
}

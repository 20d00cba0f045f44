//go:build linux

package fioengine_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/fioadapt/fioengine"
	"github.com/qdsweep/qdsweep/guard"
	"github.com/qdsweep/qdsweep/internal/looptest"
	"github.com/qdsweep/qdsweep/ioengine"
)

// remoteEngine is a fio engine on the servers at hosts, as its remote guard.
func remoteEngine(hosts ...string) (ioengine.Engine, ioengine.RemoteTargetChecker) {
	e := fioengine.NewEngine(fioengine.Options{Clients: hosts})
	return e, e.(ioengine.RemoteTargetChecker)
}

// remoteWrite is a small write workload on a fio server's target.
func remoteWrite(target, destroy string) ioengine.Workload {
	return ioengine.Workload{Filename: target, Size: 1 << 20, RW: ioengine.Write, BS: 4096, IODepth: 1, NumJobs: 1,
		Direct: true, Permit: guard.Permit{AllowWriteDevice: true, DestroyData: destroy}}
}

// TestRemoteOffsetFilesystem: a device whose first 4 MiB are zeros but
// which holds a mounted ext4 at 4 MiB (a loop device attached at that
// offset over the same image) is refused through a fio server, with every
// flag given; so is one with a filesystem at 40 MiB, and one whose only
// data is its last byte (where the GPT backup header lives). The image
// keeps every byte.
func TestRemoteOffsetFilesystem(t *testing.T) {
	needFio(t)
	looptest.RequireRootTools(t, "mkfs.ext4", "mount", "umount")
	port := freePort(t)
	startServer(t, port)
	host := "127.0.0.1:" + strconv.Itoa(port)
	run, eng := remoteEngine(host)
	ctx := context.Background()

	for _, offset := range []int64{4 << 20, 40 << 20} {
		img := looptest.MakeImage(t, 96<<20)
		fsdev := looptest.AttachLoopWith(t, img, "-o", strconv.FormatInt(offset, 10))
		looptest.RunTool(t, "", "mkfs.ext4", "-q", "-F", fsdev)
		looptest.Mount(t, fsdev)
		target := looptest.AttachLoop(t, img, false)
		head := readAt(t, target, 0, 4<<20)
		if !bytes.Equal(head, make([]byte, len(head))) {
			t.Fatalf("%s: the first 4 MiB are not zeros: the test does not set up the case", target)
		}
		before := looptest.FileSum(t, img)

		err := eng.CheckRemoteTarget(ctx, remoteWrite(target, host+":"+target))
		if !errors.Is(err, guard.ErrHasSignature) || !strings.Contains(err.Error(), "first 64 MiB") {
			t.Errorf("ext4 at %d: %v, want a refusal: not blank", offset, err)
		}
		_, err = run.Run(ctx, remoteWrite(target, host+":"+target), ioengine.Control{Runtime: 200 * time.Millisecond})
		if !errors.Is(err, guard.ErrWriteRefused) {
			t.Errorf("ext4 at %d: run: %v, want refused", offset, err)
		}
		if after := looptest.FileSum(t, img); after != before {
			t.Errorf("ext4 at %d: the image changed (sha256 %s → %s)", offset, before, after)
		}
	}

	// A device blank but for its last byte.
	img := looptest.MakeImage(t, 80<<20)
	writeAt(t, img, 80<<20-1, []byte{1})
	target := looptest.AttachLoop(t, img, false)
	before := looptest.FileSum(t, img)
	if err := eng.CheckRemoteTarget(ctx, remoteWrite(target, host+":"+target)); !errors.Is(err, guard.ErrHasSignature) {
		t.Errorf("last byte set: %v, want a refusal: not blank", err)
	}
	if after := looptest.FileSum(t, img); after != before {
		t.Errorf("last byte set: the image changed")
	}
}

// TestRemoteConsentPerHost: a write through fio servers needs
// --destroy-data=HOST:PATH for every host, whatever else is given; a blank
// device with every host named passes.
func TestRemoteConsentPerHost(t *testing.T) {
	needFio(t)
	looptest.RequireRootTools(t)
	p1, p2 := freePort(t), freePort(t)
	startServer(t, p1)
	startServer(t, p2)
	h1, h2 := "127.0.0.1:"+strconv.Itoa(p1), "127.0.0.1:"+strconv.Itoa(p2)
	img := looptest.MakeImage(t, 80<<20)
	target := looptest.AttachLoop(t, img, false)
	before := looptest.FileSum(t, img)
	ctx := context.Background()
	for _, destroy := range []string{"", target, h1 + ":" + target, h1 + ":" + target + "," + h2 + ":/dev/other"} {
		_, eng := remoteEngine(h1, h2)
		err := eng.CheckRemoteTarget(ctx, remoteWrite(target, destroy))
		want := "--destroy-data=" + h1 + ":" + target + "," + h2 + ":" + target
		if !errors.Is(err, guard.ErrWriteRefused) || !strings.Contains(err.Error(), want) {
			t.Errorf("--destroy-data=%q: %v, want a refusal naming %s", destroy, err, want)
		}
	}
	_, eng := remoteEngine(h1, h2)
	if err := eng.CheckRemoteTarget(ctx, remoteWrite(target, h1+":"+target+","+h2+":"+target)); err != nil {
		t.Errorf("blank device, both hosts named: %v, want allowed", err)
	}
	// A file on the servers needs the hosts named too.
	w := remoteWrite(img, "")
	w.Permit.AllowWrite = true
	if err := eng.CheckRemoteTarget(ctx, w); !errors.Is(err, guard.ErrWriteRefused) {
		t.Errorf("file without --destroy-data: %v, want refused", err)
	}
	if after := looptest.FileSum(t, img); after != before {
		t.Errorf("the image changed")
	}
}

func readAt(t *testing.T, path string, off int64, n int) []byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b := make([]byte, n)
	if _, err := f.ReadAt(b, off); err != nil {
		t.Fatal(err)
	}
	return b
}

func writeAt(t *testing.T, path string, off int64, b []byte) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteAt(b, off); err != nil {
		t.Fatal(err)
	}
}

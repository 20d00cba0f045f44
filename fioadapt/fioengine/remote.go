package fioengine

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/guard"
	"github.com/qdsweep/qdsweep/ioengine"
)

// What the blank probe of a remote target reads: the first 64 MiB (the
// partition tables, every superblock and label the local guard knows at
// the start of a device, a filesystem behind a loop device attached at an
// offset of a few MiB, btrfs's copy at 64 MiB excepted) and the last 1 MiB
// (the GPT backup, md 0.90/1.0 superblocks, LVM's and ZFS's tail labels).
const (
	remoteProbeHead = 64 << 20
	remoteProbeTail = 1 << 20
	// remoteTailStep starts fio's backward sequential read (rw=read:-N,
	// offset=remoteTailStep) at the last remoteProbeTail bytes: its first
	// I/O lands at size − offset + (offset − bs) = size − bs, and it ends
	// there (the next would start at the end).
	remoteTailStep = 4 << 10
)

// checkRemote is the write guard for fio servers, whose targets this host
// cannot see: not their mounts, swap areas, holders, loop devices, or the
// processes that have them open. So a write needs, as locally,
// --allow-write-device for a device (a target under /dev) or --allow-write
// for a file (nothing is laid out on the servers: every file there is an
// existing one), and besides --destroy-data=HOST:PATH naming the target
// on every host (comma-separated), the user's word for each host that
// nothing there uses it. A device must also read as zeros in its first
// 64 MiB and its last 1 MiB on every server, which fio itself checks
// (verify_pattern=0x00): a device with data there may be in use, and no
// flag overrides that (wipe it on the host first if it may go). Each
// target is probed once per engine: the sweep's own writes make it
// non-blank for the steps after the first.
func (e *Engine) checkRemote(ctx context.Context, bin string, w ioengine.Workload) error {
	if len(e.opt.Clients) == 0 || !w.RW.IsWrite() || w.Permit.Unchecked {
		return nil
	}
	device := strings.HasPrefix(filepath.Clean(w.Filename), "/dev/")
	switch {
	case !device && !w.Permit.AllowWrite:
		return refused(nil, "--%s=%s on the fio servers is an existing file there (nothing is laid out on them); writing overwrites it: pass --allow-write to allow it", fio.OptFilename, w.Filename)
	case device && !w.Permit.AllowWriteDevice:
		return refused(nil, "--%s=%s on the fio servers is a block device; writing destroys its data: pass --allow-write-device to allow it", fio.OptFilename, w.Filename)
	}
	if missing := remoteConsent(w.Permit.DestroyData, w.Filename, e.opt.Clients); len(missing) > 0 {
		return refused(nil, "--%s=%s on fio servers: qdsweep cannot see what uses it there (mounts, swap, loop devices, other programs), so each host must be named: pass --destroy-data=%s",
			fio.OptFilename, w.Filename, strings.Join(missing, ","))
	}
	if !device {
		return nil
	}
	e.mu.Lock()
	done := e.probed[w.Filename]
	e.mu.Unlock()
	if done {
		return nil
	}
	if err := e.probeBlank(ctx, bin, w.Filename); err != nil {
		return err
	}
	e.mu.Lock()
	if e.probed == nil {
		e.probed = map[string]bool{}
	}
	e.probed[w.Filename] = true
	e.mu.Unlock()
	return nil
}

// remoteConsent lists the HOST:PATH entries --destroy-data (given) lacks
// for target on each client: all of them when one is missing, so the
// message shows the whole flag to pass.
func remoteConsent(given, target string, clients []string) []string {
	named := map[string]bool{}
	for _, g := range strings.Split(given, ",") {
		named[strings.TrimSpace(g)] = true
	}
	want := make([]string, len(clients))
	all := true
	for i, c := range clients {
		want[i] = c + ":" + target
		all = all && named[want[i]]
	}
	if all {
		return nil
	}
	return want
}

// remoteProbeJob is the fio job file of the remote blank probe of target
// (escaped for fio): the first 64 MiB and the last 1 MiB, read with
// O_DIRECT and verified against zeros.
func remoteProbeJob(target string) (string, error) {
	name, err := fio.EscapeFilename(target)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	section := func(header string, opts ...[2]string) {
		b.WriteString("[" + header + "]\n")
		for _, kv := range opts {
			b.WriteString(kv[0] + "=" + kv[1] + "\n")
		}
	}
	section("global", [2]string{fio.OptFilename, name}, [2]string{fio.OptRW, "read"}, [2]string{fio.OptDirect, "1"},
		[2]string{fio.OptIOEngine, ioengine.EnginePsync}, [2]string{fio.OptVerify, "pattern"},
		[2]string{fio.OptVerifyPattern, "0x00"}, [2]string{fio.OptVerifyFatal, "1"})
	section("head", [2]string{fio.OptBS, "64k"}, [2]string{fio.OptSize, strconv.Itoa(remoteProbeHead)})
	section("tail", [2]string{fio.OptBS, strconv.Itoa(remoteProbeTail)},
		[2]string{fio.OptRW, "read:-" + strconv.Itoa(remoteProbeTail-remoteTailStep)},
		[2]string{fio.OptOffset, strconv.Itoa(remoteTailStep)})
	return b.String(), nil
}

// probeBlank runs the blank probe on every server and refuses unless every
// server ran both of its jobs without an error.
func (e *Engine) probeBlank(ctx context.Context, bin, target string) error {
	dir, err := os.MkdirTemp("", "qdsweep-fio-probe-")
	if err != nil {
		return fmt.Errorf("fio probe: %w", err)
	}
	defer os.RemoveAll(dir)
	job, err := remoteProbeJob(target)
	if err != nil {
		return err
	}
	jobPath := filepath.Join(dir, "probe.fio")
	var hosts strings.Builder
	for _, c := range e.opt.Clients {
		hosts.WriteString(fio.ClientArg(c) + "\n")
	}
	list := filepath.Join(dir, "hosts.list")
	if err := os.WriteFile(jobPath, []byte(job), 0o600); err != nil {
		return fmt.Errorf("fio probe: %w", err)
	}
	if err := os.WriteFile(list, []byte(hosts.String()), 0o600); err != nil {
		return fmt.Errorf("fio probe: %w", err)
	}
	stdout, stderr, _ := e.exec(ctx, bin, []string{"--output-format=json", "--client=" + list, jobPath}, ioengine.Control{})
	outs, perr := fio.ParseJSON(bytes.NewReader(stdout))
	if perr != nil {
		return refused(nil, "could not read %s on the fio servers to check it is blank (%v%s); refusing to write",
			target, perr, strings.ReplaceAll(firstLines(stderr, 2), "\n", " "))
	}
	ran := map[string]int{}
	for _, o := range fio.Final(outs) {
		for _, j := range o.Jobs {
			if j.Host == "" || j.AllClients {
				continue
			}
			host := j.Host
			if j.Port != 0 {
				host += ":" + strconv.Itoa(j.Port)
			}
			if j.Error != 0 {
				return refused(guard.ErrHasSignature, "%s on fio server %s is not blank in its first 64 MiB or its last 1 MiB (or could not be read there: fio error %d), where partition tables and filesystems keep their signatures; a device with data may be in use there, which qdsweep cannot see: refusing to write whatever the flags (wipe it on that host first if its data may go)",
					target, host, j.Error)
			}
			ran[host]++
		}
	}
	answered := 0
	for _, n := range ran {
		if n >= 2 {
			answered++
		}
	}
	if answered < len(e.opt.Clients) {
		return refused(nil, "only %d of %d fio servers answered the blank check of %s; refusing to write", answered, len(e.opt.Clients), target)
	}
	return nil
}

// refusal is a remote write refused: one line, wrapping ErrWriteRefused
// and kind (when not nil).
type refusal struct {
	msg  string
	kind error
}

func (r *refusal) Error() string { return r.msg }

func (r *refusal) Unwrap() []error {
	if r.kind == nil {
		return []error{guard.ErrWriteRefused}
	}
	return []error{r.kind, guard.ErrWriteRefused}
}

func refused(kind error, format string, a ...any) error {
	return &refusal{msg: fmt.Sprintf(format, a...), kind: kind}
}

// CheckRemoteTarget runs the write guard for the fio servers' target of w
// (checkRemote) before a sweep or run starts.
func (e *Engine) CheckRemoteTarget(ctx context.Context, w ioengine.Workload) error {
	bin, err := exec.LookPath(e.opt.Binary)
	if err != nil {
		return fmt.Errorf("%w (%s: %v)", ErrNotFound, e.opt.Binary, err)
	}
	return e.checkRemote(ctx, bin, w)
}

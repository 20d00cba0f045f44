package fioengine

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/guard"
	"github.com/qdsweep/qdsweep/ioengine"
)

// remoteProbeBytes is how much of a remote target the blank probe reads:
// the partition tables (MBR, primary GPT), and the superblocks and labels
// of the filesystems and volume managers the local guard recognises at
// the start of a device (ext2/3/4, XFS, btrfs at 64 KiB, LVM, md 1.1/1.2,
// swap, FAT, NTFS, ISO9660 at 32 KiB …) all lie in the first 4 MiB.
const remoteProbeBytes = 4 << 20

// checkRemote is the write guard for fio servers, whose targets this host
// cannot see. A write needs the same flag as locally: --allow-write-device
// for a device (a target under /dev), --allow-write for a file (nothing is
// laid out on the servers, so every file there is an existing one). A
// device must also be blank where formats keep their signatures: fio itself
// reads the first 4 MiB on every server with verify_pattern=0x00 and any
// byte that is not zero refuses the run, unless --destroy-data names the
// target again. Each target is probed once per engine: the sweep's own
// writes make it non-blank for the steps after the first.
func (e *Engine) checkRemote(ctx context.Context, bin string, w ioengine.Workload) error {
	if len(e.opt.Clients) == 0 || !w.RW.IsWrite() || w.Permit.Unchecked {
		return nil
	}
	device := strings.HasPrefix(filepath.Clean(w.Filename), "/dev/")
	switch {
	case !device && !w.Permit.AllowWrite:
		return refused(nil, "--filename=%s on the fio servers is an existing file there (nothing is laid out on them); writing overwrites it: pass --allow-write to allow it", w.Filename)
	case !device:
		return nil
	case !w.Permit.AllowWriteDevice:
		return refused(nil, "--filename=%s on the fio servers is a block device; writing destroys its data: pass --allow-write-device to allow it", w.Filename)
	case w.Permit.DestroyData == w.Filename:
		return nil
	}
	e.mu.Lock()
	done := e.probed[w.Filename]
	e.mu.Unlock()
	if done {
		return nil
	}
	dir, err := os.MkdirTemp("", "qdsweep-fio-probe-")
	if err != nil {
		return fmt.Errorf("fio probe: %w", err)
	}
	defer os.RemoveAll(dir)
	name, err := fio.EscapeFilename(w.Filename)
	if err != nil {
		return err
	}
	job := fmt.Sprintf("[probe]\nfilename=%s\nrw=read\nbs=64k\nsize=%d\ndirect=1\nioengine=psync\nverify=pattern\nverify_pattern=0x00\nverify_fatal=1\n",
		name, remoteProbeBytes)
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
		return refused(nil, "could not read %s on the fio servers to check it is blank (%v%s); refusing to write (pass --destroy-data=%s to write it unchecked)",
			w.Filename, perr, strings.ReplaceAll(firstLines(stderr, 2), "\n", " "), w.Filename)
	}
	seen := map[string]bool{}
	for _, o := range fio.Final(outs) {
		for _, j := range o.Jobs {
			if j.Host == "" {
				continue
			}
			seen[j.Host] = true
			if j.Error != 0 {
				return refused(guard.ErrHasSignature, "%s on fio server %s is not blank in its first 4 MiB (or could not be read: fio error %d), where partition tables and filesystems keep their signatures; refusing to write (pass --destroy-data=%s to overwrite it)",
					w.Filename, j.Host, j.Error, w.Filename)
			}
		}
	}
	if len(seen) < len(e.opt.Clients) {
		return refused(nil, "only %d of %d fio servers answered the blank check of %s; refusing to write", len(seen), len(e.opt.Clients), w.Filename)
	}
	e.mu.Lock()
	if e.probed == nil {
		e.probed = map[string]bool{}
	}
	e.probed[w.Filename] = true
	e.mu.Unlock()
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

package guard

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// Every file qdsweep writes other than the measured target — results,
// reports, charts, run's --output, emitted job files — goes through Out:
//
//   - the directory is checked once, when it is opened: a new one is made
//     (one level, never a chain of parents); an existing one must hold only
//     files qdsweep wrote (its manifest, or a qdsweep results.json) unless
//     the user said --overwrite;
//   - each file is written to a new temporary name (O_EXCL) in that same
//     directory, synced and renamed over its name, so nothing is ever
//     truncated or written through: a symlink, device node, FIFO or socket
//     at the name is refused, never followed or opened;
//   - a file the run reads or measures (OutOptions.Protect) is never
//     replaced, by whatever name it is reached; nor is a layer of a
//     storage stack (a file backing a loop device, a swap file);
//   - another run's results directory is written into only with
//     --overwrite (OutOptions.Renders names the one a command renders);
//   - the directory is held by a descriptor from the check on (os.Root):
//     every file is created, checked and renamed relative to it, never by
//     a path that could lead elsewhere since, and the path is proved to
//     lead to it still (same device and inode) before every write.

// ManifestFile lists, one name a line, the files qdsweep wrote into a
// directory: what a later run may replace there without --overwrite.
const ManifestFile = ".qdsweep-files"

// OverwriteFlag is qdsweep's own flag (not fio's overwrite option) that
// sets OutOptions.Overwrite, as the refusals name it.
const OverwriteFlag = "overwrite"

// ErrOutput is wrapped by every refusal of an output path: a usage error
// whose message names the flag, the path and the fix.
var ErrOutput = errors.New("output refused")

// OutOptions says how a command may write into its output directory.
type OutOptions struct {
	// Flag names the flag that chose the path, for messages ("--output").
	Flag string
	// Overwrite allows an existing directory holding files qdsweep did not
	// write (qdsweep's names in it are replaced; nothing else is touched).
	Overwrite bool
	// Protect lists files the run reads or measures (its inputs: job
	// files, included files, results and fio outputs read; its targets):
	// never replaced, by inode, whatever name reaches them.
	Protect []string
	// Renders is the results directory the command renders (report's
	// own): writing into it needs no Overwrite. Any other directory
	// holding a qdsweep results.json is another run's and needs Overwrite.
	Renders string
}

// Out is a directory checked for writing (OpenOut).
type Out struct {
	dir     string
	flag    string
	id      os.FileInfo
	protect []os.FileInfo
	created bool
	root    *os.Root        // the directory checked, held open for writing
	ours    map[string]bool // the manifest: names qdsweep wrote
	wrote   []string        // names written by this process
}

// OpenOut checks dir for writing and returns it, creating it (one level)
// when it does not exist. An existing directory holding files qdsweep did
// not write is refused unless o.Overwrite; a path that is not a directory,
// or whose parent is missing, is refused. Every refusal wraps ErrOutput.
func OpenOut(dir string, o OutOptions) (*Out, error) {
	return openOut(dir, o, true)
}

// CheckOut runs OpenOut's checks of dir without creating or writing
// anything: for checking flags before a run starts.
func CheckOut(dir string, o OutOptions) error {
	_, err := openOut(dir, o, false)
	return err
}

func openOut(dir string, o OutOptions, open bool) (*Out, error) {
	if o.Flag == "" {
		o.Flag = "--output"
	}
	if dir == "" {
		return nil, &outError{o.Flag + ": an empty path; name a directory"}
	}
	d := &Out{dir: dir, flag: o.Flag, ours: map[string]bool{}}
	for _, p := range o.Protect {
		if fi, err := os.Stat(p); err == nil {
			d.protect = append(d.protect, fi)
		}
	}
	if err := d.refusePseudo(dir); err != nil {
		return nil, err
	}
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := d.create(open); err != nil {
			return nil, err
		}
		if !open {
			return d, nil
		}
		if err := d.openRoot(); err != nil {
			os.Remove(dir)
			return nil, err
		}
		return d, nil
	case err != nil:
		return nil, d.refuse("%v; name a directory you can write", unwrapPath(err))
	case !fi.IsDir():
		return nil, d.refuse("%s is not a directory; name a new or empty directory", dir)
	}
	d.id = fi
	if DirBusy(dir) {
		// A running sweep holds it: its files are written before its
		// manifest names them, so say it is in use, not foreign.
		return nil, lockedError(d.flag, dir)
	}
	if err := d.readManifest(); err != nil {
		return nil, err
	}
	foreign, err := d.foreign()
	if err != nil {
		return nil, err
	}
	if len(foreign) > 0 && !o.Overwrite {
		return nil, d.refuse("%s holds files qdsweep did not write (%s); name a new or empty directory, or add --%s to write qdsweep's files beside them",
			dir, listSome(foreign, 3), OverwriteFlag)
	}
	if !o.Overwrite && isLegacyResults(d.Path("results.json")) && !sameDirAs(fi, o.Renders) {
		return nil, d.refuse("%s holds another run's results (its results.json, summary and charts); name a new directory, or add --%s to replace its files", dir, OverwriteFlag)
	}
	if err := d.probe(); err != nil {
		return nil, err
	}
	if !open {
		return nil, nil
	}
	if err := d.openRoot(); err != nil {
		return nil, err
	}
	return d, nil
}

// openRoot holds the checked directory by a descriptor, proved to be the
// one checked: the writes go there whatever is renamed in its place.
func (d *Out) openRoot() error {
	if d.root != nil {
		return nil
	}
	root, err := os.OpenRoot(d.dir)
	if err != nil {
		return d.refuse("%v; name a directory you can write", unwrapPath(err))
	}
	fi, err := root.Stat(".")
	if err != nil || d.id == nil || !os.SameFile(fi, d.id) {
		root.Close()
		return d.refuse("%s changed while it was checked; nothing was written", d.dir)
	}
	d.root = root
	return nil
}

// Path is the path of name inside the directory.
func (d *Out) Path(name string) string { return filepath.Join(d.dir, name) }

// WriteFile replaces name in the directory with data: a new temporary file
// (O_EXCL, mode 0644) synced and renamed over name, then the directory
// synced. A name that is a path, or that now holds a symlink, a device, a
// FIFO, a socket, a directory or a protected file, is refused (ErrOutput).
func (d *Out) WriteFile(name string, data []byte) error {
	if err := d.write(name, data); err != nil {
		return err
	}
	if name == ManifestFile {
		return nil
	}
	if !slices.Contains(d.wrote, name) {
		d.wrote = append(d.wrote, name)
	}
	if d.ours[name] {
		return nil
	}
	d.ours[name] = true
	return d.write(ManifestFile, d.manifest())
}

// Abandon removes what this process wrote and, when OpenOut created the
// directory and nothing else is in it now, the directory: a start that
// failed leaves nothing behind. Files another run wrote stay.
func (d *Out) Abandon() {
	if d == nil {
		return
	}
	if !d.sameDir() {
		return
	}
	for _, n := range d.wrote {
		if d.root == nil {
			break
		}
		if fi, err := d.root.Lstat(n); err == nil && fi.Mode().IsRegular() {
			d.root.Remove(n)
		}
	}
	d.wrote = nil
	if !d.created {
		return
	}
	entries, err := os.ReadDir(d.dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if e.Name() != ManifestFile {
			return
		}
	}
	os.Remove(d.Path(ManifestFile))
	os.Remove(d.dir)
}

// WriteFile writes one file at path through a directory check of its own
// (run's --output, fio's one-file outputs): the parent must exist; what is
// at path must be a regular file that is not protected, or nothing.
// Unlike OpenOut it replaces a regular file the user named (fio's
// --output does too), by rename, never by truncating it.
func WriteFile(path string, data []byte, o OutOptions) error {
	d, err := outFile(path, o)
	if err != nil {
		return err
	}
	return d.write(filepath.Base(path), data)
}

// CheckOutFile runs WriteFile's checks of path before a run starts, so a
// measurement is never lost to its output: the name, what is at it, and
// that the directory takes a file of this name (a temporary one of the
// name WriteFile uses is created and removed: a read-only directory, a
// name too long for the filesystem, a full disk are said now).
func CheckOutFile(path string, o OutOptions) error {
	d, err := outFile(path, o)
	if err != nil {
		return err
	}
	if err := d.checkName(path); err != nil {
		return err
	}
	name := filepath.Base(path)
	if name == "." || name == ".." || name == "/" || strings.HasSuffix(path, "/") {
		return d.refuse("%s names a directory; name a file", path)
	}
	f, err := os.CreateTemp(d.dir, "."+name+".tmp*")
	if err != nil {
		return d.refuse("%s: cannot write there (%v); name a file in a directory you can write, with a shorter name if it is too long", path, unwrapPath(err))
	}
	f.Close()
	os.Remove(f.Name())
	return nil
}

func outFile(path string, o OutOptions) (*Out, error) {
	if o.Flag == "" {
		o.Flag = "--output"
	}
	d := &Out{dir: filepath.Dir(path), flag: o.Flag, ours: map[string]bool{}}
	for _, p := range o.Protect {
		if fi, err := os.Stat(p); err == nil {
			d.protect = append(d.protect, fi)
		}
	}
	if err := d.refusePseudo(path); err != nil {
		return nil, err
	}
	fi, err := os.Stat(d.dir)
	if err != nil {
		return nil, d.refuse("directory %s: %v; name a file in an existing directory", d.dir, unwrapPath(err))
	}
	if !fi.IsDir() {
		return nil, d.refuse("%s is not a directory; name a file in an existing directory", d.dir)
	}
	d.id = fi
	return d, nil
}

func (d *Out) refuse(format string, args ...any) error {
	return &outError{d.flag + " " + fmt.Sprintf(format, args...)}
}

// outError is a refusal: its message is the one line the user reads.
type outError struct{ msg string }

func (e *outError) Error() string        { return e.msg }
func (e *outError) Is(target error) bool { return target == ErrOutput }

// pseudoRoots are filesystems that hold the system's devices and state:
// qdsweep never creates a file there (a typo under /dev lays out nothing
// in RAM).
var pseudoRoots = []string{"/dev", "/proc", "/sys"}

func (d *Out) refusePseudo(path string) error {
	if r := pseudoRoot(path); r != "" {
		return d.refuse("%s is under %s, where qdsweep writes nothing; name a path on a filesystem", path, r)
	}
	return nil
}

// pseudoRoot is the one of pseudoRoots that path lies on: under it (its
// parent's symlinks resolved) and on that root's own filesystem, so a
// filesystem mounted below one (/dev/shm, /dev/hugepages) is not refused.
// "" when none.
func pseudoRoot(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return ""
	}
	parent := filepath.Dir(abs)
	if real, err := filepath.EvalSymlinks(parent); err == nil {
		parent = real
		abs = filepath.Join(real, filepath.Base(abs))
	}
	for _, r := range pseudoRoots {
		if abs == r || strings.HasPrefix(abs, r+"/") {
			if abs == r || sameFilesystem(parent, r) {
				return r
			}
		}
	}
	return ""
}

func (d *Out) create(open bool) error {
	parent := filepath.Dir(filepath.Clean(d.dir))
	pi, err := os.Stat(parent)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return d.refuse("parent directory %s does not exist; create it first or name a directory inside an existing one", parent)
	case err != nil:
		return d.refuse("%v; name a directory you can write", unwrapPath(err))
	case !pi.IsDir():
		return d.refuse("%s is not a directory; name a directory inside an existing one", parent)
	}
	if !open {
		return nil
	}
	if err := os.Mkdir(d.dir, 0o755); err != nil {
		return d.refuse("%v; name a directory you can write", unwrapPath(err))
	}
	fi, err := os.Lstat(d.dir)
	if err != nil || !fi.IsDir() {
		return d.refuse("%s changed while it was made; try again", d.dir)
	}
	d.id, d.created = fi, true
	return nil
}

// probe proves the directory writable before anything is rendered or run.
func (d *Out) probe() error {
	f, err := os.CreateTemp(d.dir, ".qdsweep-write-check-*")
	if err != nil {
		return d.refuse("%s: cannot write there (%v); choose a writable directory", d.dir, unwrapPath(err))
	}
	f.Close()
	os.Remove(f.Name())
	return nil
}

func (d *Out) readManifest() error {
	b, err := os.ReadFile(d.Path(ManifestFile))
	if err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if l = strings.TrimSpace(l); l != "" && filepath.Base(l) == l {
				d.ours[l] = true
			}
		}
		return nil
	}
	// A results directory written before the manifest: its files are
	// qdsweep's when it holds a qdsweep results.json.
	if isLegacyResults(d.Path("results.json")) {
		entries, err := os.ReadDir(d.dir)
		if err != nil {
			return d.refuse("%v; name a directory you can read", unwrapPath(err))
		}
		for _, e := range entries {
			if e.Type().IsRegular() {
				d.ours[e.Name()] = true
			}
		}
	}
	return nil
}

func isLegacyResults(path string) bool {
	fi, err := os.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	var doc struct {
		Schema string `json:"schema"`
	}
	return json.Unmarshal(b, &doc) == nil && strings.HasPrefix(doc.Schema, "qdsweep/")
}

// foreign lists the directory's entries qdsweep did not write.
func (d *Out) foreign() ([]string, error) {
	entries, err := os.ReadDir(d.dir)
	if err != nil {
		return nil, d.refuse("%v; name a directory you can read", unwrapPath(err))
	}
	var out []string
	for _, e := range entries {
		n := e.Name()
		if n == ManifestFile || n == LockFile || (d.ours[n] && e.Type().IsRegular()) || isOurTemp(n) {
			continue
		}
		out = append(out, n)
	}
	sort.Strings(out)
	return out, nil
}

// isOurTemp matches the temporary names WriteFile uses (".NAME.tmp…"),
// left only by a crash between create and rename.
func isOurTemp(n string) bool {
	return strings.HasPrefix(n, ".") && strings.Contains(n, ".tmp")
}

func (d *Out) sameDir() bool {
	fi, err := os.Stat(d.dir)
	return err == nil && d.id != nil && os.SameFile(fi, d.id)
}

func (d *Out) write(name string, data []byte) error {
	if name == "" || filepath.Base(name) != name || name == "." || name == ".." {
		return d.refuse("%q is not a file name; name a file inside %s", name, d.dir)
	}
	if !d.sameDir() {
		return d.refuse("%s was replaced while qdsweep wrote into it; nothing more was written", d.dir)
	}
	if err := d.openRoot(); err != nil {
		return err
	}
	path := d.Path(name)
	if err := d.checkHeld(name); err != nil {
		return err
	}
	f, tmp, err := d.createTemp(name)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	partial.add(d.Path(tmp))
	defer partial.remove(d.Path(tmp))
	fail := func(err error) error {
		f.Close()
		d.root.Remove(tmp)
		return fmt.Errorf("write %s: %w", path, err)
	}
	if _, err := f.Write(data); err != nil {
		return fail(err)
	}
	if err := f.Chmod(0o644); err != nil {
		return fail(err)
	}
	if err := f.Sync(); err != nil {
		return fail(err)
	}
	if err := f.Close(); err != nil {
		d.root.Remove(tmp)
		return fmt.Errorf("write %s: %w", path, err)
	}
	// Checked again just before the rename: what is at the name now is
	// what gets replaced (a rename never writes through it).
	if err := d.checkHeld(name); err != nil {
		d.root.Remove(tmp)
		return err
	}
	if err := d.root.Rename(tmp, name); err != nil {
		d.root.Remove(tmp)
		return fmt.Errorf("write %s: %w", path, err)
	}
	if dir, err := d.root.Open("."); err == nil {
		_ = dir.Sync() // best effort: makes the rename durable
		dir.Close()
	}
	return nil
}

// createTemp creates a new temporary file for name in the held directory
// (".NAME.tmpNNNN", O_EXCL, mode 0600 until it is whole).
func (d *Out) createTemp(name string) (*os.File, string, error) {
	for range 1000 {
		tmp := "." + name + ".tmp" + strconv.FormatUint(rand.Uint64()%1e10, 10)
		f, err := d.root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, tmp, err
	}
	return nil, "", fmt.Errorf("no free temporary name for %s", name)
}

// checkHeld is checkName for name in the held directory.
func (d *Out) checkHeld(name string) error {
	fi, err := d.root.Lstat(name)
	return d.checkInfo(d.Path(name), fi, err)
}

// checkName refuses what must not be replaced at path: anything but a
// regular file, or a file the run reads or measures.
func (d *Out) checkName(path string) error {
	fi, err := os.Lstat(path)
	return d.checkInfo(path, fi, err)
}

// checkInfo is checkName on what Lstat said of path (fi, err).
func (d *Out) checkInfo(path string, fi os.FileInfo, err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return d.refuse("%v", unwrapPath(err))
	}
	if !fi.Mode().IsRegular() {
		return d.refuse("%s is %s, not a regular file; qdsweep replaces only files; name another path", path, FileKind(fi.Mode()))
	}
	for _, p := range d.protect {
		if os.SameFile(fi, p) {
			return d.refuse("%s is a file this run reads or measures; name another path", path)
		}
	}
	// A file qdsweep wrote here (its manifest) is its own output; any other
	// is asked of the storage stack: a file backing a loop device, a swap
	// file, a file in an overlay's layers is never replaced.
	if d.ours[filepath.Base(path)] {
		return nil
	}
	if layer := stackLayer(path, fi); layer != "" {
		return d.refuse("%s; qdsweep never replaces a layer of a storage stack: name another path", layer)
	}
	return nil
}

// sameDirAs reports whether dir (fi) is the directory of results path p
// (a results directory or its results.json).
func sameDirAs(fi os.FileInfo, p string) bool {
	if p == "" {
		return false
	}
	pi, err := os.Stat(p)
	if err == nil && !pi.IsDir() {
		pi, err = os.Stat(filepath.Dir(p))
	}
	return err == nil && os.SameFile(fi, pi)
}

func (d *Out) manifest() []byte {
	var names []string
	for n := range d.ours {
		names = append(names, n)
	}
	sort.Strings(names)
	var b bytes.Buffer
	for _, n := range names {
		b.WriteString(n + "\n")
	}
	return b.Bytes()
}

// FileKind names a file type for messages: "a named pipe", "a block
// device", … ("a special file" for any other that is not regular).
func FileKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m&fs.ModeDevice != 0 && m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m.IsDir():
		return "a directory"
	}
	return "a special file"
}

func listSome(names []string, n int) string {
	if len(names) <= n {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:n], ", ") + fmt.Sprintf(" and %d more", len(names)-n)
}

// unwrapPath drops the *PathError wrapper, whose path the message already names.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// partial holds the temporary files being written now, for a forced exit.
var partial = &tempSet{names: map[string]bool{}}

type tempSet struct {
	sync.Mutex
	names map[string]bool
}

func (t *tempSet) add(n string) {
	t.Lock()
	t.names[n] = true
	t.Unlock()
}

func (t *tempSet) remove(n string) {
	t.Lock()
	delete(t.names, n)
	t.Unlock()
}

// RemovePartialWrites removes the temporary files of writes under way, for
// a process about to exit at once (a second Ctrl-C): what the user finds
// is each file whole, as it was before or after, and nothing half-written.
func RemovePartialWrites() {
	partial.Lock()
	defer partial.Unlock()
	for n := range partial.names {
		os.Remove(n)
	}
}

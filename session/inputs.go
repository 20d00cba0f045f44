package session

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/qdsweep/qdsweep/guard"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/sweep"
)

// Inputs are never outputs, and never block: every file a command reads
// (job files and the files they include, a resumed sweep's results, saved
// results and fio outputs) is checked here before anything opens it for
// reading — a named pipe, a device or a socket is refused in one line (an
// open would wait for a writer that may never come) — and is listed for
// the one writer, which replaces none of them, by inode.

// CheckInput refuses, before any open that could block, an input that is
// neither a regular file nor a directory (a named pipe, a socket, a
// device). flag names where the path came from ("--jobfile", "report").
// "-" (standard input) and a missing path pass: the reader says those.
// A results directory's results.json is checked as well.
func CheckInput(flag, path string) error {
	if path == "" || path == "-" {
		return nil
	}
	fi, err := os.Stat(path)
	if err != nil {
		return nil // the reader names a missing or unreadable file
	}
	if fi.IsDir() {
		rj := filepath.Join(path, sweep.ResultsJSON)
		if ri, err := os.Stat(rj); err == nil && !ri.Mode().IsRegular() {
			return Usagef("%s: %s is %s, not a file; name a results directory whose results.json is a regular file", strings.TrimSpace(flag+" "+path), rj, guard.FileKind(ri.Mode()))
		}
		return nil
	}
	if !fi.Mode().IsRegular() {
		return Usagef("%s is %s, not a regular file; qdsweep reads inputs from files: save it to a file first", strings.TrimSpace(flag+" "+path), guard.FileKind(fi.Mode()))
	}
	return nil
}

// CheckInputs is CheckInput for each path.
func CheckInputs(flag string, paths []string) error {
	for _, p := range paths {
		if err := CheckInput(flag, p); err != nil {
			return err
		}
	}
	return nil
}

// ResultInputs are the files of saved results a command reads: each path,
// and a directory's results.json (for the one writer's Protect).
func ResultInputs(paths ...string) []string {
	var out []string
	for _, p := range paths {
		out = append(out, p)
		if rf := ResultsFile(p); rf != p {
			out = append(out, rf)
		}
	}
	return out
}

// maxIncludes bounds the include directives followed (fio's own parser
// refuses deeper nesting).
const maxIncludes = 8

// JobFileInputs checks a job file named by flag and every file it
// includes (fio's "include FILE", relative to the including file's
// directory, nested) with CheckInput, and lists them: the inputs a run
// or sweep reads from it. A job file that cannot be opened lists itself
// (its reader says why).
func JobFileInputs(flag, path string) ([]string, error) {
	var out []string
	var walk func(p string, depth int) error
	walk = func(p string, depth int) error {
		if err := CheckInput(flag, p); err != nil {
			return err
		}
		out = append(out, p)
		if depth >= maxIncludes {
			return nil
		}
		incs, err := includesOf(p)
		if err != nil {
			return nil
		}
		for _, inc := range incs {
			if err := walk(inc, depth+1); err != nil {
				return fmt.Errorf("%w (included by %s)", err, p)
			}
		}
		return nil
	}
	if err := walk(path, 0); err != nil {
		var ue UsageError
		if errors.As(err, &ue) {
			return nil, err
		}
		return nil, UsageErr(err)
	}
	return out, nil
}

// includesOf lists the files job file path includes, as fio resolves
// them. It opens path without blocking (O_NONBLOCK) and reads it only when
// the open file is a regular one.
func includesOf(path string) ([]string, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return nil, fs.ErrInvalid
	}
	var out []string
	sc := bufio.NewScanner(io.LimitReader(f, 16<<20))
	for sc.Scan() {
		inc, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "include ")
		if !ok {
			continue
		}
		p := strings.TrimSpace(os.ExpandEnv(inc))
		if !filepath.IsAbs(p) {
			p = filepath.Join(filepath.Dir(path), p)
		}
		out = append(out, p)
	}
	return out, nil
}

// Inputs checks and lists the files a run reads: its --jobfile, the job
// files named on their own (as `fio job.fio`), and every file they
// include. A named pipe or other non-regular file among them is a usage
// error, said before any of them is opened for reading.
func (req RunRequest) Inputs() ([]string, error) {
	var files []string
	if req.JobFile != "" {
		fs, err := JobFileInputs("--jobfile", req.JobFile)
		if err != nil {
			return nil, err
		}
		files = append(files, fs...)
	}
	_, rest, err := fio.ParseArgs(req.FioArgs)
	if err != nil {
		return files, nil // RunSpecs says it
	}
	for _, a := range rest {
		fi, err := os.Stat(a)
		if err != nil {
			continue
		}
		if !fi.Mode().IsRegular() {
			return nil, Usagef("run: %s is %s, not a job file; name a regular file", a, guard.FileKind(fi.Mode()))
		}
		fs, err := JobFileInputs("run", a)
		if err != nil {
			return nil, err
		}
		files = append(files, fs...)
	}
	return files, nil
}

// Package layers_test holds the project's layering: every package of the
// module, from the bottom up, with the packages of the module it may
// import, and CONTRIBUTING's map of them, checked against that list.
package layers_test

import (
	"bufio"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/qdsweep/qdsweep/"

// layer is one package and the packages of this module it may import
// outside its tests.
type layer struct {
	pkg string
	may []string
}

// layers is every package of the module from the bottom up: a package may
// import only packages listed before it, and of those only the ones it
// names. CONTRIBUTING.md's table lists the same packages (internal/ and
// examples aside) in the same order with the same imports.
var layers = []layer{
	// The bottom: units, device facts, text safety, test helpers.
	{"units", nil},
	{"device", nil},
	{"internal/textsafe", nil},
	{"internal/looptest", nil},
	{"internal/fliptest", nil},
	{"internal/typedconsts", nil},
	{"internal/netvoltest", []string{"internal/looptest"}},
	{"internal/netvoltest/netvol", []string{"internal/netvoltest"}},
	// Write safety, then the engine.
	{"guard", []string{"device"}},
	{"internal/outtest", []string{"guard"}},
	{"ioengine", []string{"device", "guard", "units"}},
	// fio's formats; the math, then the diagnosis over it.
	{"fio", []string{"internal/textsafe", "units"}},
	{"littleslaw", nil},
	{"diagnosis", []string{"littleslaw"}},
	{"internal/curvetest", []string{"diagnosis", "littleslaw"}},
	// The sweep, then every fio conversion, then words, then a run from
	// start to end, then the command line.
	{"sweep", []string{"device", "diagnosis", "fio", "guard", "internal/textsafe", "ioengine", "littleslaw", "units"}},
	{"fioadapt", []string{"device", "fio", "ioengine", "littleslaw", "sweep", "units"}},
	{"fioadapt/fioengine", []string{"fio", "fioadapt", "guard", "ioengine"}},
	{"report", []string{"diagnosis", "fio", "fioadapt", "guard", "ioengine", "littleslaw", "sweep", "units"}},
	{"session", []string{"device", "fio", "fioadapt", "fioadapt/fioengine", "guard", "ioengine", "littleslaw", "report", "sweep", "units"}},
	{"cmd/qdsweep", []string{"fio", "fioadapt", "fioadapt/fioengine", "guard", "ioengine", "littleslaw", "report", "session", "sweep", "units"}},
	// Tests only.
	{"examples", nil},
	{"internal/layers", nil},
}

// TestLayersInOrder holds the list itself: each package once, each import
// it allows listed before it.
func TestLayersInOrder(t *testing.T) {
	seen := map[string]bool{}
	for _, l := range layers {
		if seen[l.pkg] {
			t.Errorf("%s is listed twice", l.pkg)
		}
		for _, m := range l.may {
			if !seen[m] {
				t.Errorf("%s may import %s, which is not below it", l.pkg, m)
			}
		}
		seen[l.pkg] = true
	}
}

// TestEveryPackageImportsOnlyItsLayers reads every Go file of the module
// (test files aside, every build tag included) and fails on an import of
// the module's own that its package's layer does not allow, and on a
// package the list does not name.
func TestEveryPackageImportsOnlyItsLayers(t *testing.T) {
	may := map[string][]string{}
	for _, l := range layers {
		may[l.pkg] = l.may
	}
	root := filepath.Join("..", "..")
	found := map[string]bool{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); path != root && (strings.HasPrefix(n, ".") || n == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		pkg := filepath.ToSlash(rel)
		found[pkg] = true
		if strings.HasSuffix(path, "_test.go") {
			return nil
		}
		ok, listed := may[pkg]
		if !listed {
			return nil // reported once below
		}
		af, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, imp := range af.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if rest, own := strings.CutPrefix(p, module); own && !slices.Contains(ok, rest) {
				t.Errorf("%s imports %s; package %s may import only %v of this module (internal/layers lists the order)", path, rest, pkg, ok)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for pkg := range found {
		if _, listed := may[pkg]; !listed {
			t.Errorf("package %s is not in internal/layers' list: add it where it belongs, with what it may import", pkg)
		}
	}
	for pkg := range may {
		if !found[pkg] {
			t.Errorf("internal/layers lists %s, which has no Go files", pkg)
		}
	}
}

// TestContributingMapIsTheLayers reads CONTRIBUTING.md's table of the
// packages: the same packages as the list (internal/ and examples aside),
// in the same order, each with the imports the list allows.
func TestContributingMapIsTheLayers(t *testing.T) {
	f, err := os.Open(filepath.Join("..", "..", "CONTRIBUTING.md"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	type row struct {
		pkg     string
		imports []string
	}
	var got []row
	sc := bufio.NewScanner(f)
	in := false
	for sc.Scan() {
		if h, ok := strings.CutPrefix(sc.Text(), "## "); ok {
			in = strings.HasPrefix(h, "The packages")
		}
		cells := strings.Split(sc.Text(), "|")
		if !in || len(cells) < 5 || !strings.HasPrefix(strings.TrimSpace(cells[1]), "`") {
			continue
		}
		r := row{pkg: strings.Trim(strings.TrimSpace(cells[1]), "`")}
		for _, m := range strings.Split(cells[2], ",") {
			if m = strings.Trim(strings.TrimSpace(m), "`"); m != "" {
				r.imports = append(r.imports, m)
			}
		}
		got = append(got, r)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	var want []row
	for _, l := range layers {
		if !strings.HasPrefix(l.pkg, "internal/") && l.pkg != "examples" {
			var im []string
			for _, m := range l.may {
				if !strings.HasPrefix(m, "internal/") {
					im = append(im, m)
				}
			}
			want = append(want, row{l.pkg, im})
		}
	}
	if len(got) != len(want) {
		t.Fatalf("CONTRIBUTING.md's table has %d packages, the layers %d: %v", len(got), len(want), got)
	}
	for i := range want {
		if got[i].pkg != want[i].pkg || !slices.Equal(got[i].imports, want[i].imports) {
			t.Errorf("CONTRIBUTING.md's row %d is %s importing %v; the layers say %s importing %v", i+1, got[i].pkg, got[i].imports, want[i].pkg, want[i].imports)
		}
	}
}

// TestCmdOnlyMapsFlags holds the command line's files to the size of
// flag mapping: at most 2,500 lines in all, no file over 350 lines, no
// function over 80. What a command decides lives in package session.
func TestCmdOnlyMapsFlags(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "cmd", "qdsweep", "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no cmd files (%v)", err)
	}
	fset := token.NewFileSet()
	total := 0
	defer func() {
		if total > 2500 {
			t.Errorf("cmd/qdsweep: %d lines outside tests; at most 2,500 (move what the command decides into package session)", total)
		}
	}()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		total += fset.File(af.Pos()).LineCount()
		if n := fset.File(af.Pos()).LineCount(); n > 350 {
			t.Errorf("%s: %d lines; split it by concern (at most 350)", f, n)
		}
		for _, d := range af.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				if n := fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line + 1; n > 80 {
					t.Errorf("%s: %s is %d lines; at most 80 (move what it decides into a library package)", f, fd.Name.Name, n)
				}
			}
		}
	}
}

// TestOnlyCmdImportsSession holds session at the top of the library: the
// command line uses it, no library package does.
func TestOnlyCmdImportsSession(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "*", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	more, _ := filepath.Glob(filepath.Join("..", "..", "*", "*", "*.go"))
	fset := token.NewFileSet()
	for _, f := range append(files, more...) {
		if strings.HasSuffix(f, "_test.go") || strings.Contains(filepath.ToSlash(f), "cmd/qdsweep/") {
			continue
		}
		af, err := parser.ParseFile(fset, f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range af.Imports {
			if path, _ := strconv.Unquote(imp.Path.Value); path == module+"session" {
				t.Errorf("%s imports session; only the command line may", f)
			}
		}
	}
}

// Package layers_test holds the project's layering to what its package docs
// say: the pure packages import none of the engine's.
package layers_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/qdsweep/qdsweep/"

// allowed lists, for each package that promises to stay pure, the
// project's packages it may import (test files aside).
var allowed = map[string][]string{
	"units":      {},
	"littleslaw": {},                             // pure math
	"fio":        {"units", "internal/textsafe"}, // a format package: no engine
	"guard":      {"ioengine/device"},            // below the engines
	"fioadapt":   {"fio", "ioengine", "ioengine/device", "units"},
}

func TestPurePackagesImportNoEngine(t *testing.T) {
	for pkg, ok := range allowed {
		files, err := filepath.Glob(filepath.Join("..", "..", pkg, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no Go files (%v)", pkg, err)
		}
		fset := token.NewFileSet()
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			af, err := parser.ParseFile(fset, f, nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, imp := range af.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				if rest, own := strings.CutPrefix(path, module); own && !slices.Contains(ok, rest) {
					t.Errorf("%s imports %s; it may import only %v of this project", f, rest, ok)
				}
			}
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

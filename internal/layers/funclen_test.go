package layers_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// maxFuncLines is the longest a function of the module may be outside its
// tests, from its signature to its closing brace: a reader sees it whole.
const maxFuncLines = 80

// longFuncs are the functions allowed over maxFuncLines, "file name";
// none is. A function that must be longer is listed here with the reason
// beside it; the test fails on a listed one that is no longer over.
var longFuncs = map[string]bool{}

// TestNoLongFunctions reads every Go file of the module (tests and
// testdata aside) and fails on a function over maxFuncLines that
// longFuncs does not list, and on a listed one that is no longer over.
func TestNoLongFunctions(t *testing.T) {
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	long := map[string]int{}
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
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		af, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		for _, decl := range af.Decls {
			if fd, ok := decl.(*ast.FuncDecl); ok && fd.Body != nil {
				if n := fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line + 1; n > maxFuncLines {
					long[filepath.ToSlash(rel)+" "+fd.Name.Name] = n
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for f, n := range long {
		if !longFuncs[f] {
			t.Errorf("%s is %d lines; at most %d: split it by phase, with names that say each phase", f, n, maxFuncLines)
		}
	}
	for f := range longFuncs {
		if _, ok := long[f]; !ok {
			t.Errorf("%s is %d lines or fewer now: take it off longFuncs", f, maxFuncLines)
		}
	}
}

package fio

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/qdsweep/qdsweep/internal/typedconsts"
)

// TestOptionKeysAreRows holds every OptionKey constant to a row of the
// table: fio's name of an option, or an alias of one where a flag is
// spelled as fio's alias (--ss), never a name fio lacks.
func TestOptionKeysAreRows(t *testing.T) {
	cs, err := typedconsts.OfType(".", "OptionKey")
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) < 40 {
		t.Fatalf("%d OptionKey constants read; the source reader lost them", len(cs))
	}
	rows := map[string]bool{}
	for _, o := range fioOptions {
		rows[o.Name] = true
		for _, a := range o.Aliases {
			rows[a] = true
		}
	}
	for _, d := range RunOptions {
		rows[d.Name] = true // fio's command-line options among them (readonly)
	}
	for _, c := range cs {
		if !rows[c.Value] {
			t.Errorf("%s = %q is not a name or alias of a row of fioOptions", c.Name, c.Value)
		}
	}
}

// tableFiles are the table and its handlers: the only files that may spell
// a fio option's name out.
var tableFiles = map[string]bool{"fio/options.go": true, "fio/sweepuse.go": true, "fio/fioopts.go": true, "fioadapt/jobrun.go": true}

// notOptions are string literals that equal a fio option's name and mean
// something else, each with what it means there.
var notOptions = map[string]string{
	"fioadapt/rungroups.go stonewall": "exit_what's value stonewall (fioadapt.ExitStonewall)",
	"fio/derive.go sync":              "the sync engine's name (ioengine=sync)",
	"fioadapt/curves.go sync":         "the class of fio's synchronous engines",
	"report/shortfall.go fsync":       "the system call, named in a sentence",
	"report/shortfall.go fdatasync":   "the system call, named in a sentence",
	"report/timefindings.go load":     "the word for an open-loop step's offered load, not the act profile's load",
}

// TestNoOptionNameOutsideTable fails when a fio option's name (or an
// alias) is written as a string literal in the non-test source of a
// package that reads or writes fio's vocabulary, outside the table and its
// handlers: such code names the option by its OptionKey constant.
func TestNoOptionNameOutsideTable(t *testing.T) {
	names := map[string]bool{}
	for _, o := range fioOptions {
		names[o.Name] = true
		for _, a := range o.Aliases {
			names[a] = true
		}
	}
	seen, used := 0, map[string]bool{}
	for _, dir := range []string{"fio", "fioadapt", "session", "cmd/qdsweep", "sweep", "report", "fioadapt/fioengine"} {
		files, err := filepath.Glob(filepath.Join("..", dir, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no Go files (%v)", dir, err)
		}
		for _, f := range files {
			rel := filepath.ToSlash(strings.TrimPrefix(f, ".."+string(filepath.Separator)))
			if strings.HasSuffix(f, "_test.go") || tableFiles[rel] {
				continue
			}
			seen++
			for _, lit := range stringLiterals(t, f) {
				if !names[lit.value] {
					continue
				}
				if notOptions[rel+" "+lit.value] != "" {
					used[rel+" "+lit.value] = true
					continue
				}
				t.Errorf("%s:%d: %q is a fio option's name: name it by fio's OptionKey constant (add one to the table if it has none)", rel, lit.line, lit.value)
			}
		}
	}
	if seen < 50 {
		t.Fatalf("read %d files; the walk lost its way", seen)
	}
	for k := range notOptions {
		if !used[k] {
			t.Errorf("notOptions[%q]: no such literal any more; drop the entry", k)
		}
	}
}

type literal struct {
	value string
	line  int
}

// stringLiterals lists the string literals of file f (import paths aside;
// a struct tag's text is never a bare name).
func stringLiterals(t *testing.T, f string) []literal {
	t.Helper()
	fset := token.NewFileSet()
	af, err := parser.ParseFile(fset, f, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []literal
	ast.Inspect(af, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.ImportSpec:
			return false
		case *ast.BasicLit:
			out = append(out, literalsIn(fset, x)...)
		}
		return true
	})
	return out
}

func literalsIn(fset *token.FileSet, n ast.Node) []literal {
	x, ok := n.(*ast.BasicLit)
	if !ok || x.Kind != token.STRING {
		return nil
	}
	v, err := strconv.Unquote(x.Value)
	if err != nil {
		return nil
	}
	return []literal{{v, fset.Position(x.Pos()).Line}}
}

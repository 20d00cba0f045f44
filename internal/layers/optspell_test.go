package layers_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// optionTableFiles are fio's option table and its handlers: the only files
// whose string literals may spell a fio option as an option (--NAME, NAME=).
// Everything else names an option through the table (fio.OptionKey, a
// row's Name, fioadapt.UringKey).
var optionTableFiles = map[string]bool{
	"fio/fioopts.go":     true, // every option fio 3.33 knows
	"fio/options.go":     true, // the rows qdsweep runs, with their help
	"fio/sweepuse.go":    true, // what a sweep does with each row
	"fioadapt/jobrun.go": true, // the rows' handlers: job → workload and back
}

// spelledOptions are the files outside the table that still spell fio
// options in their string literals, each with how many spellings it has
// today and why. It only shrinks: the test fails when a file spells more
// than its count (name the option through the table instead) and when it
// spells fewer (lower the count, or drop the file, in the same change).
var spelledOptions = map[string]int{
	// A verify failure says fio's words ("requested block: offset=…"), no
	// option. ioengine's errors name the settings they refuse or ask for
	// (ioengine.Setting), named by fioadapt.ErrorLine; a shape's values
	// are its Settings' too (Shape.Values).
	"ioengine/verify.go": 1,
	// The write guard's fix for a filesystem refusing O_DIRECT (--direct=0),
	// which ioengine's open of its target passes on as it is.
	"guard/hold_linux.go": 1,
}

// optionSpelling finds --NAME and NAME= in a string literal.
var optionSpelling = regexp.MustCompile(`--([A-Za-z0-9_-]+)|([A-Za-z0-9_-]+)=`)

// TestFioOptionsSpelledOnlyInTable reads every Go file of the module
// (tests and testdata aside) and counts, per file, the string literals'
// spellings of a fio option as an option: --NAME or NAME= for a NAME of
// the table (fio/fioopts.go's and fio/options.go's rows, aliases
// included). Outside the table and its handlers a file may have only the
// spellings spelledOptions lists for it.
func TestFioOptionsSpelledOnlyInTable(t *testing.T) {
	root := filepath.Join("..", "..")
	names := tableOptionNames(t, root)
	got := map[string]int{}
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
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || optionTableFiles[rel] {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		hits, err := spellings(rel, src, names)
		if err != nil {
			return err
		}
		if len(hits) > 0 {
			got[rel] = len(hits)
		}
		if len(hits) > spelledOptions[rel] {
			t.Errorf("%s spells fio options in %d places, %d allowed; name them through the table (fio.OptionKey, a row's Name): %s",
				rel, len(hits), spelledOptions[rel], strings.Join(hits, "; "))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for f, n := range spelledOptions {
		if got[f] < n {
			t.Errorf("spelledOptions[%q] = %d, and it spells %d now: lower the count (drop the entry at 0)", f, n, got[f])
		}
	}
	total := 0
	for _, n := range got {
		total += n
	}
	t.Logf("%d spellings of fio options in %d files outside the table", total, len(got))
}

// TestSpellingsCatchAPlantedLiteral holds the reader itself: a planted
// --iodepth=4 and rw=randread are found, a flag of qdsweep's own and a
// word before '=' that no row names are not.
func TestSpellingsCatchAPlantedLiteral(t *testing.T) {
	names := tableOptionNames(t, filepath.Join("..", ".."))
	src := `package p

import "fmt"

func f() error {
	_ = "--frobnicate and x=1: no fio option"
	return fmt.Errorf("use --iodepth=4, " + "or rw=randread")
}
`
	hits, err := spellings("planted.go", []byte(src), names)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"planted.go:7 --iodepth", "planted.go:7 rw="}; strings.Join(hits, ",") != strings.Join(want, ",") {
		t.Errorf("found %q in the planted file, want %q", hits, want)
	}
}

// tableOptionNames reads the option names (and aliases) of the table's
// rows from its source: every Name and Aliases value of fio/fioopts.go and
// fio/options.go.
func tableOptionNames(t *testing.T, root string) map[string]bool {
	t.Helper()
	names := map[string]bool{}
	fset := token.NewFileSet()
	for _, f := range []string{"fio/fioopts.go", "fio/options.go"} {
		af, err := parser.ParseFile(fset, filepath.Join(root, f), nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(af, func(n ast.Node) bool {
			kv, ok := n.(*ast.KeyValueExpr)
			if !ok {
				return true
			}
			if id, isID := kv.Key.(*ast.Ident); !isID || (id.Name != "Name" && id.Name != "Aliases") {
				return true
			}
			ast.Inspect(kv.Value, func(m ast.Node) bool {
				if b, ok := m.(*ast.BasicLit); ok && b.Kind == token.STRING {
					s, _ := strconv.Unquote(b.Value)
					names[s] = true
				}
				return true
			})
			return false
		})
	}
	if len(names) < 300 || !names["iodepth"] || !names["fixedbufs"] || !names["readwrite"] {
		t.Fatalf("read %d option names from the table; the reader lost them", len(names))
	}
	return names
}

// spellings lists, "file:line --name" or "file:line name=", each place a
// string literal of Go source src (the file path) spells a fio option as
// an option. Import paths are not literals a user reads.
func spellings(path string, src []byte, names map[string]bool) ([]string, error) {
	fset := token.NewFileSet()
	af, err := parser.ParseFile(fset, path, src, 0)
	if err != nil {
		return nil, err
	}
	var out []string
	ast.Inspect(af, func(n ast.Node) bool {
		if _, ok := n.(*ast.ImportSpec); ok {
			return false
		}
		b, ok := n.(*ast.BasicLit)
		if !ok || b.Kind != token.STRING {
			return true
		}
		s, err := strconv.Unquote(b.Value)
		if err != nil {
			return true
		}
		for _, m := range optionSpelling.FindAllStringSubmatch(s, -1) {
			switch {
			case names[m[1]]:
				out = append(out, path+":"+strconv.Itoa(fset.Position(b.Pos()).Line)+" --"+m[1])
			case names[m[2]]:
				out = append(out, path+":"+strconv.Itoa(fset.Position(b.Pos()).Line)+" "+m[2]+"=")
			}
		}
		return true
	})
	sort.Strings(out)
	return out, nil
}

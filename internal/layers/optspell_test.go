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

// fioWords is the directive that marks a string literal quoting fio's own
// output, where a word before '=' is a field of fio's message and no
// option (a verify failure's "requested block: offset=…"): written on the
// literal's line or on the line before it, it keeps that literal's
// spellings out of the count. A directive that covers no spelling fails
// the test.
const fioWords = "//qdsweep:fio-words"

// optionSpelling finds --NAME and NAME= in a string literal.
var optionSpelling = regexp.MustCompile(`--([A-Za-z0-9_-]+)|([A-Za-z0-9_-]+)=`)

// TestFioOptionsSpelledOnlyInTable reads every Go file of the module
// (tests and testdata aside) and finds, per file, the string literals'
// spellings of a fio option as an option: --NAME or NAME= for a NAME of
// the table (fio/fioopts.go's and fio/options.go's rows, aliases
// included). Outside the table and its handlers there are none: name the
// option through the table, or mark a quote of fio's own output words
// (fioWords).
func TestFioOptionsSpelledOnlyInTable(t *testing.T) {
	root := filepath.Join("..", "..")
	names := tableOptionNames(t, root)
	quoted := 0
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
		s, err := spellings(rel, src, names)
		if err != nil {
			return err
		}
		if len(s.hits) > 0 {
			t.Errorf("%s spells fio options in %d places; name them through the table (fio.OptionKey, a row's Name): %s",
				rel, len(s.hits), strings.Join(s.hits, "; "))
		}
		for _, line := range s.idle {
			t.Errorf("%s:%d: %s covers no spelling of a fio option; drop it", rel, line, fioWords)
		}
		quoted += len(s.quoted)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("no spelling of a fio option outside the table; %d in quotes of fio's own words (%s)", quoted, fioWords)
}

// TestSpellingsCatchAPlantedLiteral holds the reader itself: a planted
// --iodepth=4 and rw=randread are found, a flag of qdsweep's own and a
// word before '=' that no row names are not, a quote of fio's words
// marked by the directive is set apart, and a directive over nothing is
// reported.
func TestSpellingsCatchAPlantedLiteral(t *testing.T) {
	names := tableOptionNames(t, filepath.Join("..", ".."))
	src := `package p

import "fmt"

func f() error {
	_ = "--frobnicate and x=1: no fio option"
	_ = fmt.Sprintf("(requested block: offset=%d)", 0) //qdsweep:fio-words
	//qdsweep:fio-words
	_ = fmt.Sprintf("(requested block: offset=%d, length=%d)", 0, 1)
	_ = fmt.Sprintf("offset=%d", 0)
	//qdsweep:fio-words
	_ = "nothing to quote"
	return fmt.Errorf("use --iodepth=4, " + "or rw=randread")
}
`
	s, err := spellings("planted.go", []byte(src), names)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"planted.go:10 offset=", "planted.go:13 --iodepth", "planted.go:13 rw="}; strings.Join(s.hits, ",") != strings.Join(want, ",") {
		t.Errorf("found %q in the planted file, want %q", s.hits, want)
	}
	if want := []string{"planted.go:7 offset=", "planted.go:9 offset="}; strings.Join(s.quoted, ",") != strings.Join(want, ",") {
		t.Errorf("set apart %q as fio's words, want %q", s.quoted, want)
	}
	if len(s.idle) != 1 || s.idle[0] != 11 {
		t.Errorf("directives over nothing at lines %v, want [11]", s.idle)
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

// spelled is what spellings finds in one file: each place ("file:line
// --name" or "file:line name=") a string literal spells a fio option as
// an option (hits) or quotes fio's own words under fioWords (quoted), and
// the lines of directives that cover no spelling (idle).
type spelled struct {
	hits, quoted []string
	idle         []int
}

// spellings reads Go source src (the file path) for string literals that
// spell a fio option as an option. Import paths are not literals a user
// reads.
func spellings(path string, src []byte, names map[string]bool) (spelled, error) {
	fset := token.NewFileSet()
	af, err := parser.ParseFile(fset, path, src, parser.ParseComments)
	if err != nil {
		return spelled{}, err
	}
	directives := map[int]bool{} // line -> covered a spelling
	for _, g := range af.Comments {
		for _, c := range g.List {
			if c.Text == fioWords || strings.HasPrefix(c.Text, fioWords+" ") {
				directives[fset.Position(c.Pos()).Line] = false
			}
		}
	}
	var out spelled
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
		line := fset.Position(b.Pos()).Line
		for _, m := range optionSpelling.FindAllStringSubmatch(s, -1) {
			hit := ""
			switch {
			case names[m[1]]:
				hit = path + ":" + strconv.Itoa(line) + " --" + m[1]
			case names[m[2]]:
				hit = path + ":" + strconv.Itoa(line) + " " + m[2] + "="
			default:
				continue
			}
			if d := quotedBy(directives, line); d > 0 {
				directives[d] = true
				out.quoted = append(out.quoted, hit)
				continue
			}
			out.hits = append(out.hits, hit)
		}
		return true
	})
	for line, covered := range directives {
		if !covered {
			out.idle = append(out.idle, line)
		}
	}
	sort.Strings(out.hits)
	sort.Strings(out.quoted)
	sort.Ints(out.idle)
	return out, nil
}

// quotedBy is the line of the fioWords directive that covers a literal on
// line (on that line or the line before it), 0 for none.
func quotedBy(directives map[int]bool, line int) int {
	for _, d := range []int{line, line - 1} {
		if _, ok := directives[d]; ok {
			return d
		}
	}
	return 0
}

// Package layers_test holds the project's layering to what its package docs
// say: the pure packages import none of the engine's.
package layers_test

import (
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

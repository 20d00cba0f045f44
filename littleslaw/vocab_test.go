package littleslaw

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// constsOfType lists the package's constants declared with type typ (an
// explicit type, or carried from the spec above in a const block).
func constsOfType(t *testing.T, typ string) []string {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			carried := ""
			for _, spec := range g.Specs {
				vs := spec.(*ast.ValueSpec)
				if id, ok := vs.Type.(*ast.Ident); ok {
					carried = id.Name
				} else if vs.Type != nil || len(vs.Values) > 0 {
					carried = ""
				}
				if carried == typ {
					for _, n := range vs.Names {
						out = append(out, n.Name)
					}
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

// TestVocabulariesClosed: Rules, Reasons with CPUGrades, and FactKinds
// list every constant of their type the package declares, once, so a
// reader (report's words, diagnose --help) that covers the lists covers
// every value a diagnosis can carry.
func TestVocabulariesClosed(t *testing.T) {
	check := func(typ string, listed []string) {
		t.Helper()
		seen := map[string]bool{}
		for _, v := range listed {
			if seen[v] {
				t.Errorf("%s %q listed twice", typ, v)
			}
			seen[v] = true
		}
		if got, want := len(listed), len(constsOfType(t, typ)); got != want {
			t.Errorf("%s: %d values listed, the package declares %d constants of the type: %v", typ, got, want, constsOfType(t, typ))
		}
	}
	var rules, reasons, facts []string
	for _, r := range Rules() {
		rules = append(rules, string(r))
	}
	for _, r := range slices.Concat(Reasons(), CPUGrades()) {
		reasons = append(reasons, string(r))
	}
	for _, k := range FactKinds() {
		facts = append(facts, string(k))
	}
	check("Rule", rules)
	check("FactKind", facts)
	// Two Reason constants may share a value (the CPU grade "saturated"
	// and ReasonSaturated): count declarations, not values.
	if got, want := len(reasons), len(constsOfType(t, "Reason")); got != want {
		t.Errorf("Reason: %d listed, the package declares %d: %v", got, want, constsOfType(t, "Reason"))
	}
}

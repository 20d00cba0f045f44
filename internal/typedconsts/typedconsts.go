// Package typedconsts reads a package's constants of one type from its
// source, for tests that check a vocabulary is closed: every value of an
// enum-like string type has its list entry and its words.
package typedconsts

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
)

// Const is one constant: its name and, when it is a string literal, its value.
type Const struct {
	Name, Value string
}

// OfType lists the constants declared with type typ (explicitly, or carried
// from the spec above in a const block) in the non-test Go files of dir.
func OfType(dir, typ string) ([]Const, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	var out []Const
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			return nil, err
		}
		for _, d := range f.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.CONST {
				out = append(out, constsIn(g, typ)...)
			}
		}
	}
	return out, nil
}

// constsIn lists the constants of type typ in one const declaration.
func constsIn(g *ast.GenDecl, typ string) []Const {
	var out []Const
	carried := ""
	for _, spec := range g.Specs {
		vs := spec.(*ast.ValueSpec)
		if id, ok := vs.Type.(*ast.Ident); ok {
			carried = id.Name
		} else if vs.Type != nil || len(vs.Values) > 0 {
			carried = ""
		}
		if carried != typ {
			continue
		}
		for i, n := range vs.Names {
			c := Const{Name: n.Name}
			if i < len(vs.Values) {
				if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
					c.Value, _ = strconv.Unquote(lit.Value)
				}
			}
			out = append(out, c)
		}
	}
	return out
}

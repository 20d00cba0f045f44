// Package textsafe makes text read from files safe to print: no control
// characters reach a terminal or a Markdown report.
package textsafe

import (
	"reflect"
	"strings"
	"unicode"
)

// Strip removes control characters (an ANSI escape, a carriage
// return, a bell) from every string v holds, so text read from a file
// reaches a terminal or Markdown as text (v: a pointer). Tabs and
// newlines go too: no field read this way spans lines.
func Strip(v any) {
	stripValue(reflect.ValueOf(v))
}

func stripValue(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			stripValue(v.Elem())
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				stripValue(v.Field(i))
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			stripValue(v.Index(i))
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			e := v.MapIndex(k)
			if e.Kind() == reflect.String {
				if c := cleanText(e.String()); c != e.String() {
					v.SetMapIndex(k, reflect.ValueOf(c).Convert(e.Type()))
				}
			}
		}
	case reflect.String:
		if v.CanSet() {
			if c := cleanText(v.String()); c != v.String() {
				v.SetString(c)
			}
		}
	}
}

// cleanText drops every control character from s.
func cleanText(s string) string {
	if strings.IndexFunc(s, unicode.IsControl) < 0 {
		return s
	}
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return -1
		}
		return r
	}, s)
}

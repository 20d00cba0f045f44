package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"testing"
)

// TestJSONSchemas: every JSON document a command writes names its schema,
// and nothing but the document goes to standard output.
func TestJSONSchemas(t *testing.T) {
	res := filepath.Join("..", "..", "examples", "data", "disk-randread-4k")
	fioJSON := filepath.Join("..", "..", "examples", "fio", "fio-qd4.json")
	tests := []struct {
		args   []string
		schema string
	}{
		{[]string{"advise", "--target-iops", "160k", "--latency", "2ms", "--output-format=json"}, "qdsweep/advise/v1"},
		{[]string{"advise", "--from", res, "--output-format=json"}, "qdsweep/advise/v1"},
		{[]string{"advise", "--table", "--output-format=json"}, "qdsweep/advise-table/v1"},
		{[]string{"diagnose", res, "--output-format=json"}, "qdsweep/diagnose/v1"},
		{[]string{"explain", fioJSON, "--output-format=json"}, "qdsweep/explain/v1"},
	}
	for _, tt := range tests {
		t.Run(tt.args[0]+" "+tt.args[1], func(t *testing.T) {
			app := newApp()
			var out, errw bytes.Buffer
			app.Writer, app.ErrWriter = &out, &errw
			if err := app.Run(append([]string{"qdsweep"}, tt.args...)); err != nil {
				t.Fatalf("%v: %v\n%s", tt.args, err, errw.String())
			}
			var doc struct {
				Schema string `json:"schema"`
			}
			dec := json.NewDecoder(&out)
			if err := dec.Decode(&doc); err != nil {
				t.Fatalf("%v: stdout is not one JSON document: %v", tt.args, err)
			}
			if dec.More() {
				t.Errorf("%v: more than one JSON document on stdout", tt.args)
			}
			if doc.Schema != tt.schema {
				t.Errorf("%v: schema %q, want %q", tt.args, doc.Schema, tt.schema)
			}
		})
	}
}

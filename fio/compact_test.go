package fio_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/qdsweep/qdsweep/fio"
)

// fio's JSON on one line (jq -c, a log shipper) reads as fio's layout does.
func TestCompactJSON(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "examples", "fio", "fio-qd16.json"))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := json.Compact(&b, data); err != nil {
		t.Fatal(err)
	}
	want, err := fio.Parse(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	got, err := fio.Parse(&b)
	if err != nil || len(got) != 1 || len(got[0].Jobs) != 1 || got[0].Jobs[0].Read.IOPS != want[0].Jobs[0].Read.IOPS {
		t.Fatalf("compact JSON: %v, %+v", err, got)
	}
}

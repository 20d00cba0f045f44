package fio

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestReadClientsFioSpelling: fio spells a server and its port
// "host,port" (--client=127.0.0.1,18765); qdsweep reads that as one server
// with its port, as fio does, beside its own host:port, in a list and in a
// host file, and refuses a port that follows no host in one line naming it.
func TestReadClientsFioSpelling(t *testing.T) {
	for _, tc := range []struct {
		spec string
		want []string
	}{
		{"127.0.0.1,18765", []string{"127.0.0.1:18765"}},
		{"a,b", []string{"a", "b"}},
		{"a,8766,b", []string{"a:8766", "b"}},
		{"a:8766,b,9000", []string{"a:8766", "b:9000"}},
		{"::1,8766", []string{"[::1]:8766"}},
	} {
		got, err := ReadClients(tc.spec)
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("ReadClients(%q) = %q, %v; want %q", tc.spec, got, err, tc.want)
		}
	}
	for _, spec := range []string{"18765", "a:1,2", "a,70000"} {
		if got, err := ReadClients(spec); err == nil || strings.Contains(err.Error(), "\n") {
			t.Errorf("ReadClients(%q) = %q, %v; want a one-line refusal", spec, got, err)
		}
	}
	f := filepath.Join(t.TempDir(), "hosts")
	if err := os.WriteFile(f, []byte("10.0.0.1,18765\n10.0.0.2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := ReadClients(f); err != nil || !slices.Equal(got, []string{"10.0.0.1:18765", "10.0.0.2"}) {
		t.Errorf("host file: %q, %v", got, err)
	}
}

package session

import (
	"strings"
	"testing"
)

func TestInputNames(t *testing.T) {
	tests := []struct {
		paths []string
		want  string
	}{
		{[]string{"/r/before", "/r/after/results.json"}, "before,after"},
		{[]string{"/a/run/results.json", "/b/run"}, "a/run,b/run"},
		{[]string{"/x/nvme.json", "/x/pd.json"}, "nvme,pd"},
		{[]string{"/same", "/same"}, "same,same #2"},
	}
	for _, tc := range tests {
		if got := strings.Join(InputNames(tc.paths), ","); got != tc.want {
			t.Errorf("InputNames(%v) = %s, want %s", tc.paths, got, tc.want)
		}
	}
}

package main

import "testing"

func TestWrapHanging(t *testing.T) {
	tests := []struct {
		name, in    string
		width       int
		first, rest string
		want        string
	}{
		{"fits", "one two", 20, "- ", "  ", "- one two\n"},
		{"breaks at spaces", "aaa bbb ccc", 8, "", "  ", "aaa bbb\n  ccc\n"},
		{"unit stays with its number", "latency is 500 µs; more", 16, "", "  ", "latency is\n  500 µs; more\n"},
		{"long word alone", "x averyveryverylongword y", 10, "", "", "x\naveryveryverylongword\ny\n"},
		{"empty", "", 10, "> ", "", "> \n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := wrapHanging(tt.in, tt.width, tt.first, tt.rest); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

package fio

import "testing"

// TestViaFioRefusalNamesKnownOptions: every option given a reason why fio
// may not run it for qdsweep is one of fio's (by its own name) and not on
// the allow-list, so ViaFioRefusal gives its reason; an allowed option
// has none, and an option neither allowed nor known gets the allow-list's
// reason, never a claim about what it does.
func TestViaFioRefusalNamesKnownOptions(t *testing.T) {
	for n, why := range viaFioRefused {
		if _, ok := options[n]; !ok || OptionName(n) != n {
			t.Errorf("%s: not fio's own name of an option", n)
		}
		if OptionViaFio(n) {
			t.Errorf("%s: on the allow-list and refused (%s)", n, why)
		}
		if got := ViaFioRefusal(n); got != why {
			t.Errorf("%s: ViaFioRefusal %q, want %q", n, got, why)
		}
	}
	for _, n := range viaFioOptions {
		if got := ViaFioRefusal(n); got != "" {
			t.Errorf("%s: allowed, but refused (%s)", n, got)
		}
	}
	if got := ViaFioRefusal("gpu_dev_id"); got != whyNotKnown {
		t.Errorf("gpu_dev_id: %q, want the allow-list's reason", got)
	}
}

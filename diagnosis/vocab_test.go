package diagnosis

import (
	"slices"
	"sort"
	"testing"

	"github.com/qdsweep/qdsweep/internal/typedconsts"
)

// constsOfType lists the package's constants declared with type typ.
func constsOfType(t *testing.T, typ string) []string {
	t.Helper()
	cs, err := typedconsts.OfType(".", typ)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, c := range cs {
		out = append(out, c.Name)
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

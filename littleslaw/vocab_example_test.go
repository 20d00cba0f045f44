package littleslaw_test

import (
	"fmt"

	"github.com/qdsweep/qdsweep/littleslaw"
)

// Reasons is every Reason a Finding can carry, so that a reporter can word
// each one: the reason ExampleDiagnose finds is among them.
func ExampleReasons() {
	for _, r := range littleslaw.Reasons() {
		if r == littleslaw.ReasonBelowTarget {
			fmt.Println(r)
		}
	}
	// Output: below-target
}

// CPUGrades are the grades a FactCPU carries in its Reason.
func ExampleCPUGrades() {
	fmt.Println(littleslaw.CPUGrades())
	// Output: [saturated nearly-saturated not-limit]
}

// FactKinds is every kind of evidence a Finding's facts can be.
func ExampleFactKinds() {
	for _, k := range littleslaw.FactKinds() {
		if k == littleslaw.FactCPU {
			fmt.Println(k)
		}
	}
	// Output: cpu
}

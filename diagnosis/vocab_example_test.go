package diagnosis_test

import (
	"fmt"

	"github.com/qdsweep/qdsweep/diagnosis"
)

// Reasons is every Reason a Finding can carry, so that a reporter can word
// each one: the reason ExampleDiagnose finds is among them.
func ExampleReasons() {
	for _, r := range diagnosis.Reasons() {
		if r == diagnosis.ReasonBelowTarget {
			fmt.Println(r)
		}
	}
	// Output: below-target
}

// CPUGrades are the grades a FactCPU carries in its Reason.
func ExampleCPUGrades() {
	fmt.Println(diagnosis.CPUGrades())
	// Output: [saturated nearly-saturated not-limit]
}

// FactKinds is every kind of evidence a Finding's facts can be.
func ExampleFactKinds() {
	for _, k := range diagnosis.FactKinds() {
		if k == diagnosis.FactCPU {
			fmt.Println(k)
		}
	}
	// Output: cpu
}

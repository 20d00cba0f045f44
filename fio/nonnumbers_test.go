package fio

import (
	"strings"
	"testing"
)

// TestParseJSONNonNumbers: fio 3.33 prints a steady-state slope over a
// one-second window as -nan (C's %f), which is not JSON; the document
// still reads, the slope as 0, and a string holding "nan" is kept.
func TestParseJSONNonNumbers(t *testing.T) {
	doc := `{
  "fio version" : "fio-3.33",
  "jobs" : [
    {
      "jobname" : "nan",
      "groupid" : 0,
      "steadystate" : {
        "ss" : "iops_slope:200.000000%",
        "duration" : 1,
        "attained" : 1,
        "criterion" : "-nan%",
        "max_deviation" : 0.000000,
        "slope" : -nan,
        "data" : {
          "bw_mean" : inf,
          "iops_mean" : 10,
          "iops" : [10],
          "bw" : [40960]
        }
      }
    }
  ]
}
`
	outs, err := ParseJSON(strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	j := outs[0].Jobs[0]
	if j.Name != "nan" || j.Steady == nil || !j.Steady.Attained || j.Steady.Slope != 0 || len(j.Steady.IOPS) != 1 {
		t.Fatalf("job %q, steady %+v", j.Name, j.Steady)
	}
}

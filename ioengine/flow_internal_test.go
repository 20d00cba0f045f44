package ioengine

import "testing"

// flowMember is one job of a flow in TestFlowShares: its weight and count.
type flowMember struct {
	weight int
	issued int64
}

// issueRounds has each member of c ask for one I/O in turn, rounds times,
// as jobs that could always issue would, and returns how many each got.
func issueRounds(c *FlowCounter, ms []*flowMember, rounds int) []int64 {
	for range rounds {
		for _, m := range ms {
			c.take(&m.issued, m.weight)
		}
	}
	out := make([]int64, len(ms))
	for i, m := range ms {
		out[i] = m.issued
	}
	return out
}

// TestFlowShares holds fio's flow_threshold_exceeded arithmetic: members
// of weights 1 and 8 issue 1:8 of the I/Os, 3:2:1 three ways, within one
// I/O; a negative weight is fio's unsigned one, all but the whole flow;
// and a member that leaves frees the rest.
func TestFlowShares(t *testing.T) {
	for _, tc := range []struct {
		weights []int
		want    []float64 // shares of the I/Os
	}{
		{[]int{1, 8}, []float64{1.0 / 9, 8.0 / 9}},
		{[]int{3, 2, 1}, []float64{3.0 / 6, 2.0 / 6, 1.0 / 6}},
		{[]int{5, 5}, []float64{0.5, 0.5}},
		{[]int{1000, 1}, []float64{1000.0 / 1001, 1.0 / 1001}},
		{[]int{-8, 1}, []float64{1, 0}}, // fio's 4294967288 beside 1
	} {
		c := NewFlowCounter()
		var ms []*flowMember
		for _, w := range tc.weights {
			c.Join(w)
			ms = append(ms, &flowMember{weight: w})
		}
		got := issueRounds(c, ms, 20000)
		var total int64
		for _, n := range got {
			total += n
		}
		for i, n := range got {
			if want := tc.want[i] * float64(total); float64(n) < want-2 || float64(n) > want+2 {
				t.Errorf("weights %v: member %d issued %d of %d; want %.1f", tc.weights, i, n, total, want)
			}
		}
		if c.issued.Load() != total+1 {
			t.Errorf("weights %v: the flow counted %d; want its members' %d + 1, as fio's", tc.weights, c.issued.Load(), total)
		}
	}

	// Weights 1 and 8: once the heavier leaves, the lighter is held no more.
	c := NewFlowCounter()
	light, heavy := &flowMember{weight: 1}, &flowMember{weight: 8}
	c.Join(1)
	c.Join(8)
	issueRounds(c, []*flowMember{light, heavy}, 900)
	before := light.issued
	c.leave(heavy.issued, heavy.weight)
	issueRounds(c, []*flowMember{light}, 100)
	if light.issued != before+100 {
		t.Errorf("alone in its flow, the light member issued %d of 100", light.issued-before)
	}
	if c.issued.Load() != light.issued+1 || c.weight.Load() != 1 {
		t.Errorf("after the heavy member left, the flow holds %d I/Os and weight %d; want %d and 1", c.issued.Load(), c.weight.Load(), light.issued+1)
	}

	// Two jobs of weight 3 that never ran leave only their weight.
	c.Join(3)
	c.Join(3)
	c.Unjoin(3, 2)
	if c.issued.Load() != light.issued+1 || c.weight.Load() != 1 {
		t.Errorf("after two jobs that never ran left, the flow holds %d I/Os and weight %d; want %d and 1", c.issued.Load(), c.weight.Load(), light.issued+1)
	}
}

package sweep

import "testing"

// TestPollThreads: the io_uring options a sweep records (fio's name=value
// pairs, as fioadapt.UringText writes them) are read back whole:
// sqthread_poll=1 alone, among others, or with a pinned CPU is a polling
// thread; none, =0 or a pinned CPU alone is not.
func TestPollThreads(t *testing.T) {
	for _, o := range []struct {
		recorded string
		want     bool
	}{
		{"", false},
		{"sqthread_poll=1", true},
		{"sqthread_poll=1 sqthread_poll_cpu=1 hipri=1", true},
		{"registerfiles=1 sqthread_poll_cpu=1", false},
		{"sqthread_poll=0", false},
	} {
		if got := pollThreads(o.recorded); got != o.want {
			t.Errorf("%q: poll threads %v, want %v", o.recorded, got, o.want)
		}
	}
}

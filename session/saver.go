package session

import (
	"encoding/json"
	"sync"

	"github.com/qdsweep/qdsweep/guard"
	"github.com/qdsweep/qdsweep/sweep"
)

// resultSaver writes a sweep's results through the one writer, one write at
// a time, and keeps the last one written so that a forced exit (a second
// Ctrl-C) still leaves results.json whole and marked interrupted.
type resultSaver struct {
	mu   sync.Mutex
	out  *guard.Out
	last []byte // the last result written, as JSON
	done bool   // a forced exit has written: nothing more
}

// save writes r.
func (s *resultSaver) save(r *sweep.Result) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.done {
		return nil
	}
	if err := sweep.Write(s.out, r); err != nil {
		return err
	}
	s.last, _ = json.Marshal(r)
	return nil
}

// markInterrupted rewrites the last result written with interrupted set,
// waiting for a write under way to end first. For onHardExit.
func (s *resultSaver) markInterrupted() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.done || s.last == nil {
		return
	}
	var r sweep.Result
	if json.Unmarshal(s.last, &r) == nil && !r.Interrupted {
		r.Interrupted = true
		_ = sweep.Write(s.out, &r)
	}
	s.done = true
}

package main

import "sync"

// hardExit holds cleanups (scratch file removal) that must run even when a
// second Ctrl-C exits at once.
var hardExit struct {
	sync.Mutex
	fns map[int]func()
	n   int
}

// onHardExit registers fn to run on a forced exit; the returned func unregisters it.
func onHardExit(fn func()) func() {
	hardExit.Lock()
	defer hardExit.Unlock()
	if hardExit.fns == nil {
		hardExit.fns = map[int]func(){}
	}
	hardExit.n++
	id := hardExit.n
	hardExit.fns[id] = fn
	return func() {
		hardExit.Lock()
		delete(hardExit.fns, id)
		hardExit.Unlock()
	}
}

func runHardExit() {
	hardExit.Lock()
	defer hardExit.Unlock()
	for _, fn := range hardExit.fns {
		fn()
	}
}

package ioengine

import "context"

// NoLocalTarget is implemented by engines that do no I/O on
// Workload.Filename on this host: the simulator, and fio driving remote
// servers. For them sweep.Run neither checks nor holds a local target.
type NoLocalTarget interface {
	// NoLocalTarget reports whether the engine's I/O is not on this host's Filename.
	NoLocalTarget() bool
}

// RemoteTargetChecker is implemented by engines whose target lives on
// other hosts: CheckRemoteTarget runs their write guard for w there before
// anything is written (the fio engine probes each server's target with fio).
type RemoteTargetChecker interface {
	CheckRemoteTarget(ctx context.Context, w Workload) error
}

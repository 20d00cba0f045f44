package sweep

// Probe samples device and host telemetry around each step's measured window.
// The controller calls WindowStart when measuring begins (after the ramp),
// WindowEnd when it ends, then Collect for the figures of that window.
// Implementations must be safe to call from the engine's coordinating goroutine.
type Probe interface {
	WindowStart()
	WindowEnd()
	// Collect returns the figures of the last window; either may be nil when unknown.
	Collect() (*DeviceStats, *HostCPU)
}

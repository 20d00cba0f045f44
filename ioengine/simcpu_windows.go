package ioengine

// simCPU is unknown on Windows: the simulator reports no CPU time.
func simCPU() CPU { return CPU{} }

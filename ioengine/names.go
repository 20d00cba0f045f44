package ioengine

// Engine names New accepts.
const (
	EngineIOUring = "io_uring"
	EngineLibaio  = "libaio"
	EnginePsync   = "psync"
)

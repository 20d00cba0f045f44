package ioengine

// Engine names: what --ioengine takes and what results record as
// Meta.Engine. The one list of them; everything else refers to these.
const (
	EngineIOUring = "io_uring" // kernel: io_uring
	EngineLibaio  = "libaio"   // kernel: Linux native AIO
	EnginePsync   = "psync"    // kernel: one pread/pwrite at a time per job
	EngineSim     = "sim"      // a simulated device, no I/O
	EngineFio     = "fio"      // the installed fio, run as a child process
	EngineNull    = "null"     // fio's null engine: every I/O done at once, no file touched
)

// engineNames are the names Validate accepts.
var engineNames = map[string]bool{EngineIOUring: true, EngineLibaio: true, EnginePsync: true, EngineSim: true, EngineFio: true, EngineNull: true}

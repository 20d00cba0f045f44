package ioengine

// IORecord is one I/O that completed in the measured window, kept when
// Control.IOLog asks for every I/O (fio's logs without log_avg_msec).
type IORecord struct {
	EndNs  int64  // completion, ns since the measured window began
	LatNs  int64  // submission to completion, ns
	Offset int64  // bytes into the file
	Bytes  int64  // transferred
	Dir    int    // 0 read, 1 write
	Prio   uint16 // the ioprio value it went at (Workload.Prio; 0: none)
}

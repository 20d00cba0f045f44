//go:build linux

package ioengine

// fillWrite prepares buf, about to be written at file offset off: fio's
// verify blocks when the job verifies, else the job's Buffers (content.go).
func (j *job) fillWrite(buf []byte, off int64) {
	switch {
	case j.verify != nil:
		j.verify.fill(buf, off)
	case j.content != nil:
		j.content.write(buf, off, j.m.tLast)
	}
}

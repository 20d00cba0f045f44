//go:build linux

package ioengine

// verifyRead checks a completed read of direction dir (buf, read at off)
// against the job's verifier: bad is true when it failed, and err is the
// failure that ends the job (nil under continue_on_error, which counts it).
func (j *job) verifyRead(dir int, buf []byte, off int64) (bad bool, err error) {
	if j.verify == nil || dir != dirRead {
		return false, nil
	}
	at, cause := j.verify.check(buf, off)
	if cause == nil {
		return false, nil
	}
	return true, j.m.verifyFailed(at, cause)
}

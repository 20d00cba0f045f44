package ioengine

// hookProbeErr, set by tests, makes the io_uring probe fail with this error
// so the fallback to libaio can be exercised on a machine where io_uring works.
var hookProbeErr error

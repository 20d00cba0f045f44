package guard

// Test seams for the package's external tests (compiled only with them).

// Created reports whether OpenOut made the directory.
func (d *Out) Created() bool { return d.created }

package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"testing"
)

// testBinaryEnv names the binary TestMain built, for the tests of package
// main (TestMain lives in main_test).
const testBinaryEnv = "QDSWEEP_TEST_BINARY"

// sweepBinary is the qdsweep binary TestMain built (cli_test.go) for the
// tests of this package that run it: one build, in a directory TestMain
// removes when the tests end, so nothing is left in the temporary
// directory.
func sweepBinary(t *testing.T) string {
	t.Helper()
	p := os.Getenv(testBinaryEnv)
	if p == "" {
		t.Fatalf("$%s is not set: TestMain builds the binary", testBinaryEnv)
	}
	return p
}

// runQdsweep runs the binary in dir and returns stdout, stderr and the exit code.
func runQdsweep(t *testing.T, dir string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(sweepBinary(t), args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return stdout.String(), stderr.String(), code
}

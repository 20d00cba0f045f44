package examples_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// repoRoot is the repository root, relative to this package's directory.
const repoRoot = ".."

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
	binDir    string
)

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// qdsweepBinary builds ./cmd/qdsweep once per test binary into a temporary
// directory and returns its path.
func qdsweepBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		binDir, buildErr = os.MkdirTemp("", "qdsweep-examples-bin-")
		if buildErr != nil {
			return
		}
		binPath = filepath.Join(binDir, "qdsweep")
		// The README's build command (readmeBuild), into the temporary directory.
		cmd := exec.Command("go", "build", "-trimpath", "-o", binPath, "./cmd/qdsweep")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		cmd.Dir = repoRoot
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build ./cmd/qdsweep: %w\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

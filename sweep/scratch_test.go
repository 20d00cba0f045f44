package sweep_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/qdsweep/qdsweep/ioengine"
)

// scratchSize is the size of scratchEngine's file, bytes.
const scratchSize = 32 << 20

// scratchEngine lays out a scratch file of scratchSize in the test's temp
// directory and opens the io_uring engine, or its libaio fallback (logged):
// the real engine and file the sweeps of these tests run over.
func scratchEngine(t *testing.T) (ioengine.Engine, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "target")
	if err := ioengine.CreateScratch(context.Background(), path, scratchSize); err != nil {
		t.Fatal(err)
	}
	eng, fallback, err := ioengine.New(ioengine.EngineIOUring)
	if err != nil {
		t.Fatal(err)
	}
	if fallback != "" {
		t.Logf("engine %s: %s", eng.Name(), fallback)
	}
	return eng, path
}

package ioengine_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOneGuardTargetBuilder: the write guard's target of a workload is
// built in one place (Workload.GuardTarget), so the engines, a sweep's
// hold and the command line's check judge the same file, flags and region.
func TestOneGuardTargetBuilder(t *testing.T) {
	root := ".."
	var found []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if strings.Contains(string(b), "guard.Target{") {
			found = append(found, filepath.ToSlash(path))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(found) != 1 || found[0] != "../ioengine/workload.go" {
		t.Errorf("guard.Target built in %v; build it with Workload.GuardTarget only", found)
	}
}

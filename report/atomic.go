package report

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/qdsweep/qdsweep/sweep"
)

// writeFiles writes each named file into dir atomically, creating dir, and
// returns the paths written in order.
func writeFiles(dir string, files []namedFile) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("create output directory: %w", err)
	}
	var paths []string
	for _, f := range files {
		p := filepath.Join(dir, f.Name)
		if err := sweep.WriteFileAtomic(p, f.Data); err != nil {
			return paths, err
		}
		paths = append(paths, p)
	}
	return paths, nil
}

// namedFile is a file's name and full contents, rendered before writing.
type namedFile struct {
	Name string
	Data []byte
}

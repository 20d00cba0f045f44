package report

import "github.com/qdsweep/qdsweep/guard"

// writeFiles writes each named file into out (each by temporary file and
// rename, through the one writer) and returns the paths written in order.
func writeFiles(out *guard.Out, files []namedFile) ([]string, error) {
	var paths []string
	for _, f := range files {
		if err := out.WriteFile(f.Name, f.Data); err != nil {
			return paths, err
		}
		paths = append(paths, out.Path(f.Name))
	}
	return paths, nil
}

// namedFile is a file's name and full contents, rendered before writing.
type namedFile struct {
	Name string
	Data []byte
}

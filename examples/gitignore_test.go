package examples_test

import (
	"debug/elf"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunnableOutputsIgnored checks that every directory a runnable block
// of the top-level README writes with --output (or --out, -o) is
// .gitignore'd at the repository root, where a reader runs the commands
// by hand.
func TestRunnableOutputsIgnored(t *testing.T) {
	ignore, err := os.ReadFile(filepath.Join(repoRoot, ".gitignore"))
	if err != nil {
		t.Fatal(err)
	}
	ignored := map[string]bool{}
	for _, l := range strings.Split(string(ignore), "\n") {
		ignored[strings.TrimSpace(l)] = true
	}
	seen := 0
	for _, doc := range []string{"README.md", "examples/hyperdisk/README.md"} {
		data, err := os.ReadFile(filepath.Join(repoRoot, doc))
		if err != nil {
			t.Fatal(err)
		}
		cmds, err := runnableCommands(doc, data)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cmds {
			f := strings.Fields(c.text)
			for i, w := range f {
				dir := ""
				switch {
				case (w == "--output" || w == "--out" || w == "-o") && i+1 < len(f):
					dir = f[i+1]
				case strings.HasPrefix(w, "--output="), strings.HasPrefix(w, "--out="):
					dir = w[strings.Index(w, "=")+1:]
				}
				if dir == "" {
					continue
				}
				seen++
				if want := "/" + strings.Trim(filepath.Clean(dir), "/") + "/"; !ignored[want] {
					t.Errorf("%s:%d writes %s, which .gitignore lacks (add %q)", doc, c.line, dir, want)
				}
			}
		}
	}
	if seen == 0 {
		t.Error("no runnable block writes a directory: this test checks nothing")
	}
}

// TestBuildIsStatic checks that the README gives the build command the
// tests build with, and that it makes a statically linked binary (no
// program interpreter, no shared libraries), as the README promises.
func TestBuildIsStatic(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), readmeBuild) {
		t.Fatalf("README.md lacks the build command %q", readmeBuild)
	}
	f, err := elf.Open(qdsweepBinary(t))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP || p.Type == elf.PT_DYNAMIC {
			t.Errorf("binary has a %v program header: dynamically linked", p.Type)
		}
	}
	if libs, err := f.ImportedLibraries(); err == nil && len(libs) > 0 {
		t.Errorf("binary needs shared libraries %q", libs)
	}
}

// readmeBuild is the README's build command; qdsweepBinary builds the same way.
const readmeBuild = "CGO_ENABLED=0 go build -trimpath -o qdsweep ./cmd/qdsweep"

package guard_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qdsweep/qdsweep/guard"
)

// flagOf names the guard's settings as a command line's flags would.
func flagOf(s guard.Setting) string {
	return map[guard.Setting]string{guard.SettingFile: "--file", guard.SettingSize: "--bytes"}[s]
}

// existingFile is a file of 4 KiB in a directory of its own, named "f".
func existingFile(dir string) (string, error) {
	f := filepath.Join(dir, "f")
	return f, os.WriteFile(f, make([]byte, 4096), 0o600)
}

// TestNamedRefusals writes over a file qdsweep did not create, and past
// its end with AllowWrite: each refusal's fix says the settings in plain
// words, Named spells those its caller names, and both wrap the same
// sentinels.
func TestNamedRefusals(t *testing.T) {
	f, err := existingFile(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		permit       guard.Permit
		kind         error
		plain, named string
	}{
		{guard.Permit{}, guard.ErrWriteRefused,
			"(pass --allow-write, or name a new file)", "(pass --allow-write, or name a new --file)"},
		{guard.Permit{AllowWrite: true}, guard.ErrWouldExtend,
			"(lower size/offset or use a new file)", "(lower --bytes/offset or use a new --file)"},
	} {
		err := guard.Check(guard.Target{Path: f, Write: true, End: 1 << 20}, c.permit)
		named := guard.Named(err, flagOf)
		if !strings.HasSuffix(err.Error(), c.plain) || !strings.HasSuffix(named.Error(), c.named) {
			t.Errorf("refusal %q, named %q; want them to end %q and %q", err, named, c.plain, c.named)
		}
		if !errors.Is(named, c.kind) || !errors.Is(named, guard.ErrWriteRefused) {
			t.Errorf("named %v wraps neither %v nor the write refusal", named, c.kind)
		}
		if strings.Replace(err.Error(), c.plain, "", 1) != strings.Replace(named.Error(), c.named, "", 1) {
			t.Errorf("Named changed more than the fix: %q, %q", err, named)
		}
	}
	other := fmt.Errorf("open %s: %w", f, os.ErrPermission)
	if guard.Named(other, flagOf) != other || guard.Named(nil, flagOf) != nil {
		t.Error("Named changed an error that is no refusal")
	}
	for _, s := range guard.Settings() {
		if strings.HasPrefix(s.String(), "setting ") {
			t.Errorf("setting %d has no words", s)
		}
	}
}

// A refusal names each setting its fix asks to change in plain words;
// Named spells them as its caller's flags.
func ExampleNamed() {
	dir, _ := os.MkdirTemp("", "guard-example-")
	defer os.RemoveAll(dir)
	f, _ := existingFile(dir)
	err := guard.Check(guard.Target{Path: f, Write: true, End: 4096}, guard.Permit{})
	fmt.Println(strings.TrimPrefix(err.Error(), f))
	fmt.Println(strings.TrimPrefix(guard.Named(err, flagOf).Error(), f))
	// Output:
	//  already exists; refusing to overwrite its contents (pass --allow-write, or name a new file)
	//  already exists; refusing to overwrite its contents (pass --allow-write, or name a new --file)
}

// Settings are what a refusal's fix may name, each in its plain words.
func ExampleSettings() {
	for _, s := range guard.Settings() {
		fmt.Println(s)
	}
	// Output:
	// file
	// size
	// offset
	// direct
}

// String is a setting in plain words.
func ExampleSetting_String() {
	fmt.Println(guard.SettingOffset)
	// Output: offset
}

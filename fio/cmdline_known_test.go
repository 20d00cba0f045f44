package fio_test

import (
	"os/exec"
	"regexp"
	"testing"

	"github.com/qdsweep/qdsweep/fio"
)

// TestFioCommandLineKnown: every option fio's own --help lists is a fio
// option to qdsweep (run, ignored or refused for what it is, never "not a
// fio option"), except the few qdsweep takes as flags of its own; and each
// of fio's help, version, self-test, server and trigger options is refused
// with the reason fio may not run it for qdsweep, not as unknown.
func TestFioCommandLineKnown(t *testing.T) {
	fioBin, err := exec.LookPath("fio")
	if err != nil {
		t.Skip("fio is not installed: fio --help is what this test reads")
	}
	out, err := exec.Command(fioBin, "--help").CombinedOutput()
	if err != nil {
		t.Fatalf("fio --help: %v\n%s", err, out)
	}
	// qdsweep run's own flags of the same name and meaning.
	flags := map[string]bool{"parse-only": true, "showcmd": true, "section": true}
	names := regexp.MustCompile(`(?m)^\s+--([a-z][a-z-]*)`).FindAllStringSubmatch(string(out), -1)
	if len(names) < 30 {
		t.Fatalf("fio --help listed %d options; want fio 3.33's 40 or so:\n%s", len(names), out)
	}
	for _, m := range names {
		n := m[1]
		if flags[n] {
			continue
		}
		if fio.OptionHandling(n) == fio.Unknown {
			t.Errorf("--%s (fio --help lists it) is not a fio option to qdsweep", n)
		}
	}
	for _, n := range []string{"cmdhelp", "enghelp", "version", "crctest", "cpuclock-test", "server", "client", "trigger"} {
		if fio.OptionHandling(n) != fio.Unsupported {
			t.Errorf("--%s: handling %d, want refused", n, fio.OptionHandling(n))
		}
		if why := fio.ViaFioRefusal(n); why == "" || why == fio.ViaFioRefusal("no_such_option_here") {
			t.Errorf("--%s: refused as %q, want its own reason", n, why)
		}
	}
}

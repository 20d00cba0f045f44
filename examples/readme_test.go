package examples_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/littleslaw"
)

// runnableMark is the line that marks the next fenced block as runnable:
// every command in it must run on any Linux machine within seconds and
// exit 0.
const runnableMark = "<!-- runnable -->"

// docsWithRunnableBlocks are the Markdown files whose runnable blocks are run,
// relative to the repository root.
var docsWithRunnableBlocks = []string{
	"README.md",
	"examples/hyperdisk/README.md",
	"examples/database/README.md",
}

// command is one command line of a runnable block.
type command struct {
	doc   string
	block int // runnable blocks counted from 1 in doc; a block's commands share a directory
	line  int // 1-based line in doc
	text  string
}

// runnableCommands returns the command lines of the runnable blocks of a
// Markdown document: blank lines and # comments skipped, lines ending in a
// backslash joined with the next.
func runnableCommands(doc string, data []byte) ([]command, error) {
	var out []command
	sc := bufio.NewScanner(bytes.NewReader(data))
	n, block, marked, inBlock := 0, 0, false, false
	var cur *command
	for sc.Scan() {
		n++
		l := sc.Text()
		t := strings.TrimSpace(l)
		switch {
		case !inBlock && t == runnableMark:
			marked = true
		case !inBlock && strings.HasPrefix(t, "```"):
			inBlock = true
			if marked {
				block++
			}
		case inBlock && strings.HasPrefix(t, "```"):
			if cur != nil {
				return nil, fmt.Errorf("%s:%d: runnable block ends inside a continued line", doc, n)
			}
			inBlock, marked = false, false
		case inBlock && marked:
			if cur != nil {
				cur.text += " " + strings.TrimSuffix(t, `\`)
			} else if t != "" && !strings.HasPrefix(t, "#") {
				cur = &command{doc: doc, block: block, line: n, text: strings.TrimSuffix(t, `\`)}
			}
			if cur != nil && !strings.HasSuffix(t, `\`) {
				out = append(out, *cur)
				cur = nil
			}
		case !inBlock && t != "":
			marked = false // the mark applies to the very next block only
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if inBlock {
		return nil, fmt.Errorf("%s: a fenced block is never closed", doc)
	}
	return out, nil
}

// TestRunnableBlocks runs every command of the runnable blocks with the
// freshly built binary standing for `qdsweep` and `go run ./cmd/qdsweep`.
// Each block runs in its own temporary directory, where `examples` links to
// the repository's examples: repository paths work as written, a command
// may read what an earlier one of its block wrote, and whatever a command
// writes (--out, --output) lands in the temporary directory.
func TestRunnableBlocks(t *testing.T) {
	bin := qdsweepBinary(t)
	examplesDir, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, doc := range docsWithRunnableBlocks {
		data, err := os.ReadFile(filepath.Join(repoRoot, doc))
		if err != nil {
			t.Fatal(err)
		}
		cmds, err := runnableCommands(doc, data)
		if err != nil {
			t.Fatal(err)
		}
		if len(cmds) == 0 {
			t.Errorf("%s has no %s block", doc, runnableMark)
		}
		total += len(cmds)
		shown := outputBlocks(data)
		printed := map[int]*strings.Builder{}
		dirs := map[int]string{}
		for _, c := range cmds {
			if dirs[c.block] == "" {
				dirs[c.block] = t.TempDir()
				if err := os.Symlink(examplesDir, filepath.Join(dirs[c.block], "examples")); err != nil {
					t.Fatal(err)
				}
			}
			if printed[c.block] == nil {
				printed[c.block] = &strings.Builder{}
			}
			t.Run(fmt.Sprintf("%s:%d", c.doc, c.line), func(t *testing.T) {
				printed[c.block].WriteString(runCommand(t, bin, examplesDir, dirs[c.block], c))
			})
		}
		for block, lines := range shown {
			checkShownOutput(t, doc, block, lines, printed[block].String())
		}
	}
	t.Logf("%d commands run", total)
}

// outputBlocks returns, for each runnable block (counted from 1) followed
// by a plain fenced block (only blank lines between), that block's lines:
// what the document shows its commands print.
func outputBlocks(data []byte) map[int][]string {
	out := map[int][]string{}
	lines := strings.Split(string(data), "\n")
	block := 0
	for i := 0; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != runnableMark {
			continue
		}
		block++
		j := i + 2
		for j < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[j]), "```") {
			j++
		}
		k := j + 1
		for k < len(lines) && strings.TrimSpace(lines[k]) == "" {
			k++
		}
		if k >= len(lines) || strings.TrimSpace(lines[k]) != "```" {
			i = j
			continue
		}
		var shown []string
		for k++; k < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[k]), "```"); k++ {
			shown = append(shown, lines[k])
		}
		out[block] = shown
		i = k
	}
	return out
}

// checkShownOutput fails when an output block shows a sentence its
// commands no longer print: each of its lines, wrapped ones joined and
// spaces collapsed, must occur in what the block's commands printed.
func checkShownOutput(t *testing.T, doc string, block int, shown []string, printed string) {
	t.Helper()
	flat := strings.Join(strings.Fields(printed), " ")
	var entries []string
	for _, l := range shown {
		switch {
		case strings.TrimSpace(l) == "":
		case len(entries) > 0 && strings.HasPrefix(l, "  "):
			entries[len(entries)-1] += " " + strings.TrimSpace(l) // a wrapped or indented line: one statement
		default:
			entries = append(entries, strings.TrimSpace(l))
		}
	}
	for _, e := range entries {
		if e = strings.Join(strings.Fields(e), " "); !strings.Contains(flat, e) {
			t.Errorf("%s: runnable block %d shows %q, which its commands no longer print:\n%s", doc, block, e, printed)
		}
	}
}

// runCommand runs one command line through sh (so globs work) in dir and
// fails unless it exits 0 and leaves the repository's files alone; it
// returns what the command printed on stdout.
func runCommand(t *testing.T, bin, examplesDir, dir string, c command) string {
	line := c.text
	for _, prefix := range []string{"go run ./cmd/qdsweep ", "qdsweep "} {
		if strings.HasPrefix(line, prefix) {
			line = "qdsweep " + strings.TrimPrefix(line, prefix)
		}
	}
	if !strings.HasPrefix(line, "qdsweep ") {
		t.Fatalf("%s:%d: a runnable command must start with qdsweep: %q", c.doc, c.line, c.text)
	}
	before := snapshot(t, examplesDir)

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", `"$QDSWEEP" `+strings.TrimPrefix(line, "qdsweep "))
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "QDSWEEP="+bin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if err != nil {
		t.Errorf("%s:%d: %s: %v\nstderr:\n%s", c.doc, c.line, c.text, err, stderr.String())
	}
	if stdout.Len()+stderr.Len() == 0 {
		t.Errorf("%s:%d: %s printed nothing", c.doc, c.line, c.text)
	}
	if after := snapshot(t, examplesDir); after != before {
		t.Errorf("%s:%d: %s changed files under examples/", c.doc, c.line, c.text)
	}
	return stdout.String()
}

// snapshot lists the files under dir with their sizes and modification
// times, to tell whether a command wrote into the repository.
func snapshot(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%s %d %d\n", p, fi.Size(), fi.ModTime().UnixNano())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestRunnableCommandsParse checks the block extraction on a small document.
func TestRunnableCommandsParse(t *testing.T) {
	doc := "intro\n\n" +
		runnableMark + "\n```sh\n# comment\nqdsweep advise --table\n\ngo run ./cmd/qdsweep explain \\\n  f.json\n```\n" +
		"```sh\nqdsweep sweep --filename /dev/nvme0n1\n```\n" +
		runnableMark + "\ntext between\n```sh\nqdsweep diagnose x\n```\n"
	got, err := runnableCommands("doc", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	want := []command{
		{doc: "doc", block: 1, line: 6, text: "qdsweep advise --table"},
		{doc: "doc", block: 1, line: 8, text: "go run ./cmd/qdsweep explain  f.json"},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

// TestReadmeExplainClaims: what the README says `explain` concludes for
// the sample fio files is what it concludes: each verdict, and the depth
// it gives the 80,000 IOPS target (the QD 16 run's own, which met it).
// The four runs together are one curve, answered once, as import fio and
// advise --from answer them.
func TestReadmeExplainClaims(t *testing.T) {
	t.Run("one curve", readmeExplainCurveClaims)
	readme, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	flat := strings.Join(strings.Fields(string(readme)), " ")
	for _, claim := range []string{"it calls the QD 1 run depth-bound", "QD 16 and QD 64 runs device-bound",
		"5.3× and 14.4× the fastest I/O", "that target takes the 16 it had"} {
		if !strings.Contains(flat, claim) {
			t.Fatalf("README no longer says %q: update this test with it", claim)
		}
	}
	type doc struct {
		Jobs []struct {
			Explanation littleslaw.Explanation `json:"explanation"`
		} `json:"jobs"`
	}
	explain := func(args ...string) doc {
		out, err := exec.Command(qdsweepBinary(t), append([]string{"explain", "--output-format=json"}, args...)...).Output()
		if err != nil {
			t.Fatalf("explain %v: %v", args, err)
		}
		var d doc
		if err := json.Unmarshal(out, &d); err != nil || len(d.Jobs) != 1 {
			t.Fatalf("explain %v: %v, %d jobs", args, err, len(d.Jobs))
		}
		return d
	}
	for qd, want := range map[int]string{1: littleslaw.VerdictDepthBound, 16: littleslaw.VerdictDeviceBound, 64: littleslaw.VerdictDeviceBound} {
		if got := explain(fmt.Sprintf("fio/fio-qd%d.json", qd)).Jobs[0].Explanation.Verdict; got != want {
			t.Errorf("QD %d: verdict %s, the README says %s", qd, got, want)
		}
	}
	e := explain("--target-iops", "80000", "fio/fio-qd16.json").Jobs[0].Explanation
	if e.Target == nil || !e.Target.MetByRun || e.Target.QDCeil != 16 {
		t.Errorf("80,000 IOPS from the QD 16 run: %+v, the README says the 16 it had", e.Target)
	}
	for _, ev := range e.Evidence {
		if ev.Kind == littleslaw.EvidenceMinLatency && fmt.Sprintf("%.1f", ev.Ratio) != "5.3" {
			t.Errorf("QD 16 mean/fastest %.2f, the README says 5.3×", ev.Ratio)
		}
	}
}

// TestReadmeSweepAndCompareClaims: the sweep the README shows is the
// recorded sample's (every line of it is what `report` prints for
// examples/data/disk-randread-4k), and what it says `compare` concludes of
// qdsweep against fio on the samples is what compare prints.
func TestReadmeSweepAndCompareClaims(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	readme := string(data)
	_, after, ok := strings.Cut(readme, "## A real sweep of a small VM")
	_, after, ok2 := strings.Cut(after, "```\n")
	shown, _, ok3 := strings.Cut(after, "```")
	if !ok || !ok2 || !ok3 {
		t.Fatal("README no longer shows a real sweep under \"## A real sweep of a small VM\": update this test")
	}
	run := func(args ...string) string {
		cmd := exec.Command(qdsweepBinary(t), args...)
		cmd.Dir = t.TempDir()
		abs, _ := filepath.Abs(".")
		if err := os.Symlink(abs, filepath.Join(cmd.Dir, "examples")); err != nil {
			t.Fatal(err)
		}
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("qdsweep %v: %v", args, err)
		}
		return string(out)
	}
	checkShownOutput(t, "README.md", 0, strings.Split(shown, "\n"), run("report", "examples/data/disk-randread-4k"))

	flat := strings.Join(strings.Fields(readme), " ")
	for _, claim := range []string{"so compare shows their deltas and judges none: at QD 1 fio measured 17.2% more IOPS (45.4 µs against 53.1 µs)",
		"from QD 16 on the two are within 3% (80.2k and 80.4k IOPS at QD 16, 92.4k and 94.9k at QD 64)",
		"Welch's t-test at 95% (two-sided)", "(4.30 at 2, 1.96 with many)", "with no floor and no cap: slices spreading 20%, five a step, give about ±29%"} {
		if !strings.Contains(flat, claim) {
			t.Fatalf("README no longer says %q: update this test with it", claim)
		}
	}
	out := run("compare", "--output", "cmp", "examples/data/disk-randread-4k", "examples/data/fio-randread-4k")
	for _, w := range []string{"Welch's t-test, 95% two-sided", "(4.30 at 2, 2.23 at 10, 1.96 with many)"} {
		if !strings.Contains(strings.Join(strings.Fields(out), " "), w) {
			t.Errorf("compare no longer says %q, as the README does:\n%s", w, out)
		}
	}
	rows := map[string][]string{}
	for _, l := range strings.Split(out, "\n") {
		if f := strings.Fields(l); len(f) >= 11 && f[0] != "QD" && strings.HasSuffix(f[3], "%") {
			rows[f[0]] = f
		}
	}
	for qd, want := range map[string][2]string{"16": {"80.2k", "80.4k"}, "64": {"92.4k", "94.9k"}} {
		f := rows[qd]
		if len(f) == 0 || f[1] != want[0] || f[2] != want[1] || math.Abs(percent(f[3])) >= 3 || f[len(f)-1] != "?" {
			t.Errorf("compare's QD %s row %v; the README says %s and %s, within 3%%, not judged", qd, f, want[0], want[1])
		}
	}
	if f := rows["1"]; len(f) == 0 || f[3] != "+17.2%" || f[4] != "53.1" || f[6] != "45.4" || f[len(f)-1] != "?" {
		t.Errorf("compare's QD 1 row %v; the README says +17.2%% IOPS, 45.4 µs against 53.1 µs, not judged", f)
	}
}

// percent reads a delta cell ("+2.8%") as a number of percent.
func percent(cell string) float64 {
	v, err := strconv.ParseFloat(strings.TrimSuffix(cell, "%"), 64)
	if err != nil {
		return math.NaN()
	}
	return v
}

// readmeExplainCurveClaims: explain of the four sample runs answers 90,000
// IOPS once, from their curve, with the figures the README quotes, and
// import fio + advise --from of the same files gives the same answer.
func readmeExplainCurveClaims(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	flat := strings.Join(strings.Fields(string(readme)), " ")
	for _, claim := range []string{"90,000 IOPS needs 40.9 in flight at 454 µs", "Use iodepth 41 × numjobs 1", "QD 64 gave 18% more"} {
		if !strings.Contains(flat, claim) {
			t.Fatalf("README no longer says %q: update this test with it", claim)
		}
	}
	files := []string{"fio/fio-qd1.json", "fio/fio-qd4.json", "fio/fio-qd16.json", "fio/fio-qd64.json"}
	out, err := exec.Command(qdsweepBinary(t), append([]string{"explain", "--target-iops", "90000"}, files...)...).Output()
	if err != nil {
		t.Fatal(err)
	}
	text := string(out)
	if n := strings.Count(text, "90,000 IOPS needs"); n != 1 || !strings.Contains(text, "90,000 IOPS needs 40.9 in flight at 454 µs") ||
		!strings.Contains(text, "Use iodepth 41 × numjobs 1") || !strings.Contains(text, "the deeper QD 64 run gave 94.9k IOPS, 18% more") {
		t.Errorf("explain of the four runs answers 90,000 IOPS %d times, or not as the README says:\n%s", n, text)
	}
	dir := t.TempDir()
	if out, err := exec.Command(qdsweepBinary(t), append([]string{"import", "fio", "--output", filepath.Join(dir, "imp")}, files...)...).CombinedOutput(); err != nil {
		t.Fatalf("import fio: %v\n%s", err, out)
	}
	adv, err := exec.Command(qdsweepBinary(t), "advise", "--from", filepath.Join(dir, "imp"), "--target-iops", "90000").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{"90,000 IOPS needs 40.9 in flight at 454 µs", "Use iodepth 41 × numjobs 1"} {
		if !strings.Contains(string(adv), line) {
			t.Errorf("advise --from the imported runs lacks %q:\n%s", line, adv)
		}
	}
}

// TestReadmeCloudClaims: the latency range the README quotes for
// Hyperdisk Balanced is the preset's, and advise --cloud says it.
func TestReadmeCloudClaims(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	flat := strings.Join(strings.Fields(string(readme)), " ")
	if !strings.Contains(flat, "Hyperdisk Balanced: 1 ms, so 160 in flight, over 1–2 ms 160–320") ||
		!strings.Contains(flat, "at 2 ms, the top of that range") {
		t.Fatal("README no longer states Hyperdisk Balanced's planning range as this test checks: update it")
	}
	p, err := littleslaw.LookupPreset("gcp-hyperdisk-balanced")
	if err != nil || p.TypicalLatNs != 1e6 || p.LatLowNs != 1e6 || littleslaw.GCPTableLatNs != 2e6 || p.LatHighNs != littleslaw.GCPTableLatNs {
		t.Fatalf("preset %+v (%v): the README says 1 ms typical, 1–2 ms, and the table at the range's top", p, err)
	}
	out, err := exec.Command(qdsweepBinary(t), "advise", "--cloud", "gcp-hyperdisk-balanced", "--target-iops", "160000").Output()
	if err != nil {
		t.Fatal(err)
	}
	flatOut := strings.Join(strings.Fields(string(out)), " ")
	if !strings.Contains(flatOut, "needs 160 I/Os in flight") || !strings.Contains(flatOut, "planning range of 1 ms–2 ms, 160–320") {
		t.Errorf("advise --cloud:\n%s", out)
	}
}

//go:build linux

package guard

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os/exec"
	"strings"
)

// secondOpinion asks blkid and wipefs, where installed, whether path holds
// any signature they know. It returns what they found ("" for nothing), or
// an error when a tool that is installed could not give an answer: an
// unanswered question is not a blank device.
func secondOpinion(path string) (string, error) {
	if bin, err := exec.LookPath("blkid"); err == nil {
		what, err := blkidProbe(bin, path)
		if err != nil || what != "" {
			return what, err
		}
	}
	if bin, err := exec.LookPath("wipefs"); err == nil {
		return wipefsList(bin, path)
	}
	return "", nil
}

// blkidProbe runs a low-level probe (no cache). blkid exits 2 when it finds
// nothing, 8 when the result is ambivalent (several formats).
func blkidProbe(bin, path string) (string, error) {
	cmd := exec.Command(bin, "-p", "-o", "export", "--", path)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return blkidWords(out), nil
	case errors.As(err, &ee) && ee.ExitCode() == 2 && strings.TrimSpace(stderr.String()) == "":
		return "", nil // nothing found (it says why it could not look on stderr, with the same code)
	case errors.As(err, &ee) && ee.ExitCode() == 8:
		return "more than one format (blkid: ambivalent probing result)", nil
	}
	return "", fmt.Errorf("blkid -p could not check it (%v: %s)", err, strings.TrimSpace(stderr.String()))
}

// blkidWords turns blkid's KEY=value lines into "an ext4 filesystem (blkid)".
func blkidWords(out []byte) string {
	kv := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), "="); ok {
			kv[k] = v
		}
	}
	var what string
	switch {
	case kv["TYPE"] != "":
		what = kv["TYPE"]
		if u := kv["USAGE"]; u != "" {
			what += " " + u
		}
	case kv["PTTYPE"] != "":
		what = kv["PTTYPE"] + " partition table"
	default:
		return "" // only partition-entry facts (PART_ENTRY_*): no format inside
	}
	return what + " (found by blkid)"
}

// wipefsList lists the signatures wipefs sees, without erasing anything.
func wipefsList(bin, path string) (string, error) {
	cmd := exec.Command(bin, "--no-act", "--noheadings", "--parsable", "--output", "TYPE,OFFSET", "--", path)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("wipefs could not check it (%v: %s)", err, strings.TrimSpace(stderr.String()))
	}
	var found []string
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			typ, off, _ := strings.Cut(l, ",")
			found = append(found, typ+" at offset "+off)
		}
	}
	if len(found) == 0 {
		return "", nil
	}
	return strings.Join(found, ", ") + " (found by wipefs)", nil
}

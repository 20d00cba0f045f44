package guard

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// mountEntry is one line of mountinfo.
type mountEntry struct {
	dev    string // "major:minor" of the mounted filesystem
	point  string // mount point
	source string // mount source, e.g. /dev/sda1
	fstype string // e.g. ext4, overlay
	super  string // superblock options, e.g. lowerdir=…,upperdir=…
}

// parseMountinfo reads /proc/self/mountinfo: "id parent major:minor root
// point options [optional…] - fstype source superoptions". Malformed lines are errors.
func parseMountinfo(r io.Reader) ([]mountEntry, error) {
	var ms []mountEntry
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for ln := 1; sc.Scan(); ln++ {
		line := sc.Text()
		if strings.TrimSpace(line) == "" {
			continue
		}
		f := strings.Fields(line)
		sep := -1
		for i := 6; i < len(f); i++ {
			if f[i] == "-" {
				sep = i
				break
			}
		}
		if len(f) < 7 || sep < 0 || sep+2 >= len(f) || !strings.Contains(f[2], ":") {
			return nil, fmt.Errorf("mountinfo line %d: malformed: %q", ln, line)
		}
		e := mountEntry{dev: f[2], point: unescapeOctal(f[4]), fstype: f[sep+1], source: unescapeOctal(f[sep+2])}
		if sep+3 < len(f) {
			e.super = unescapeOctal(f[sep+3])
		}
		ms = append(ms, e)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("mountinfo: %w", err)
	}
	return ms, nil
}

// parseSwaps reads /proc/swaps ("Filename Type Size Used Priority" header,
// then one line per swap area) and returns the file names.
func parseSwaps(r io.Reader) ([]string, error) {
	var names []string
	sc := bufio.NewScanner(r)
	for ln := 1; sc.Scan(); ln++ {
		f := strings.Fields(sc.Text())
		if len(f) == 0 || (ln == 1 && f[0] == "Filename") {
			continue
		}
		names = append(names, unescapeOctal(f[0]))
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("swaps: %w", err)
	}
	return names, nil
}

// unescapeOctal undoes the kernel's \ooo escaping of spaces, tabs,
// newlines and backslashes in paths.
func unescapeOctal(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) && isOctalDigit(s[i+1]) && isOctalDigit(s[i+2]) && isOctalDigit(s[i+3]) {
			b.WriteByte((s[i+1]-'0')<<6 | (s[i+2]-'0')<<3 | (s[i+3] - '0'))
			i += 3
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func isOctalDigit(c byte) bool { return c >= '0' && c <= '7' }

// overlayLayers lists the layer directories of an overlay mount's
// superblock options (upperdir, then each lowerdir and lowerdir+), those
// given as absolute paths: a relative one names a directory relative to
// where it was mounted, which the mount table does not say.
func overlayLayers(super string) []string {
	var dirs []string
	for _, o := range strings.Split(super, ",") {
		k, v, _ := strings.Cut(o, "=")
		switch k {
		case "upperdir":
			dirs = append(dirs, v)
		case "lowerdir", "lowerdir+":
			dirs = append(dirs, strings.Split(v, ":")...)
		}
	}
	out := dirs[:0]
	for _, d := range dirs {
		if strings.HasPrefix(d, "/") {
			out = append(out, d)
		}
	}
	return out
}

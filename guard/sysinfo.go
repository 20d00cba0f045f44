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
	super  string // superblock options as mountinfo escapes them, e.g. lowerdir=…,upperdir=…
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
			e.super = f[sep+3] // escaped: a comma inside a value is \054 (parseOverlayOpts)
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

// overlayOpts are an overlay mount's layer directories as its options
// spell them: as the mounter typed them, so a relative one names a
// directory relative to the mounter's working directory at the time,
// which the mount table does not say (resolveOverlay finds it through the
// mount itself).
type overlayOpts struct {
	upper, work string
	lowers      []string // top first, data-only layers included
}

// parseOverlayOpts reads upperdir, workdir, lowerdir (colon-separated,
// "::" before data-only layers, "\:" a colon inside a name), lowerdir+
// and datadir+ from an overlay's superblock options as mountinfo shows
// them (each value octal-escaped by the kernel, commas included).
func parseOverlayOpts(super string) overlayOpts {
	var o overlayOpts
	for _, opt := range strings.Split(super, ",") {
		k, v, _ := strings.Cut(opt, "=")
		v = unescapeOctal(v)
		switch k {
		case "upperdir":
			o.upper = v
		case "workdir":
			o.work = v
		case "lowerdir":
			o.lowers = append(o.lowers, splitLowers(v)...)
		case "lowerdir+", "datadir+":
			if v != "" {
				o.lowers = append(o.lowers, v)
			}
		}
	}
	return o
}

// splitLowers splits a lowerdir value at colons not escaped by a backslash.
func splitLowers(v string) []string {
	var out []string
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		switch {
		case v[i] == '\\' && i+1 < len(v):
			i++
			b.WriteByte(v[i])
		case v[i] == ':':
			if b.Len() > 0 {
				out = append(out, b.String())
			}
			b.Reset()
		default:
			b.WriteByte(v[i])
		}
	}
	if b.Len() > 0 {
		out = append(out, b.String())
	}
	return out
}

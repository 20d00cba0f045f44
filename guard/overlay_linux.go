//go:build linux

package guard

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// ovlLayer is one layer directory of a mounted overlay, found on disk.
type ovlLayer struct {
	role string // "upper", "work" or "lower"
	path string // where it was found
	id   FileID
}

// overlayMount is a mounted overlay with its layers resolved through the
// mount: the option string says how the mounter spelled each layer
// (relative to a working directory nobody recorded); the overlay's root
// says which directory its top layer really is (its file handle, or its
// inode number where the filesystem gives no handles), and only a
// spelling that leads there is believed.
type overlayMount struct {
	point    string
	dev      uint64 // the overlay's own device number
	opts     overlayOpts
	layers   []ovlLayer
	missing  []string   // layers that could not be found ("lower layer \"l2\"")
	guessed  []ovlLayer // unverified: directories the spellings lead to here
	verified bool       // the top layer was found through the mount
	root     fid        // the root's real directory as the overlay encodes it
	rootIno  uint64
}

// overlays resolves every overlay in the mount table.
func (c Checker) overlays(mounts []mountEntry) []overlayMount {
	cwd, _ := os.Getwd()
	var out []overlayMount
	for _, m := range mounts {
		if m.fstype != "overlay" {
			continue
		}
		out = append(out, resolveOverlay(m, cwd))
	}
	return out
}

// resolveOverlay finds m's layer directories. Relative spellings are tried
// against the directories a mounter most likely stood in (the mount
// point's parent and its ancestors, this process's working directory and
// its ancestors); the first under which the top layer is the overlay's
// root resolves all of them.
func resolveOverlay(m mountEntry, cwd string) overlayMount {
	o := overlayMount{point: m.point, opts: parseOverlayOpts(m.super)}
	var st unix.Stat_t
	if unix.Stat(m.point, &st) != nil || devNumber(uint64(st.Dev)) != m.dev {
		// Hidden under another mount, or gone: nothing to ask.
		o.missing = o.spellings()
		o.guess(m.point)
		return o
	}
	o.dev, o.rootIno = uint64(st.Dev), st.Ino
	_, o.root, _ = handleOf(m.point)
	top := o.opts.upper
	if top == "" && len(o.opts.lowers) > 0 {
		top = o.opts.lowers[0]
	}
	if top == "" {
		o.missing = o.spellings()
		return o
	}
	for _, base := range layerBases(top, m.point, cwd) {
		if o.isRoot(join(base, top)) {
			o.verified = true
			o.place(base)
			return o
		}
	}
	o.missing = o.spellings()
	o.guess(m.point)
	return o
}

// guess takes, for an overlay whose top layer could not be shown to be
// its root, each spelling that leads to a directory here (an absolute one
// as it is, a relative one from the mount point's parent) as a layer it
// may be: refusing a file there is the safe mistake.
func (o *overlayMount) guess(point string) {
	for _, l := range o.opts.all() {
		p := join(filepath.Dir(point), l.spelled)
		var st unix.Stat_t
		if unix.Stat(p, &st) == nil && st.Mode&unix.S_IFMT == unix.S_IFDIR && (o.dev == 0 || uint64(st.Dev) != o.dev) {
			o.guessed = append(o.guessed, ovlLayer{role: l.role, path: p, id: FileID{Dev: uint64(st.Dev), Ino: st.Ino}})
		}
	}
}

// layerBases lists where a relative layer spelling may have been typed.
func layerBases(spelled, point, cwd string) []string {
	if filepath.IsAbs(spelled) {
		return []string{""}
	}
	var bases []string
	seen := map[string]bool{}
	for _, start := range []string{filepath.Dir(point), cwd} {
		for d := start; d != ""; {
			if !seen[d] {
				seen[d] = true
				bases = append(bases, d)
			}
			parent := filepath.Dir(d)
			if parent == d {
				break
			}
			d = parent
		}
	}
	return bases
}

func join(base, p string) string {
	if filepath.IsAbs(p) || base == "" {
		return filepath.Clean(p)
	}
	return filepath.Join(base, p)
}

// isRoot reports whether directory p is the overlay's top layer: the
// handle the overlay gives for its root, or where there is none the same
// inode number on another device.
func (o *overlayMount) isRoot(p string) bool {
	var st unix.Stat_t
	if unix.Stat(p, &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFDIR || uint64(st.Dev) == o.dev {
		return false
	}
	if !o.root.zero() {
		own, _, _ := handleOf(p)
		return own == o.root
	}
	return st.Ino == o.rootIno
}

// place finds every layer under base (absolute spellings as they are).
func (o *overlayMount) place(base string) {
	add := func(role, spelled string) {
		p := join(base, spelled)
		var st unix.Stat_t
		if strings.Contains(p, unknownDir) || unix.Stat(p, &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFDIR {
			o.missing = append(o.missing, fmt.Sprintf("%s layer %q", role, spelled))
			return
		}
		o.layers = append(o.layers, ovlLayer{role: role, path: p, id: FileID{Dev: uint64(st.Dev), Ino: st.Ino}})
	}
	for _, l := range o.opts.all() {
		add(l.role, l.spelled)
	}
}

// spelledLayer is one layer as an overlay's options spell it.
type spelledLayer struct{ role, spelled string }

// all lists the layers the options spell: upper, work, then each lower.
func (o overlayOpts) all() []spelledLayer {
	var out []spelledLayer
	if o.upper != "" {
		out = append(out, spelledLayer{"upper", o.upper})
	}
	if o.work != "" {
		out = append(out, spelledLayer{"work", o.work})
	}
	for _, l := range o.lowers {
		out = append(out, spelledLayer{"lower", l})
	}
	return out
}

func (o *overlayMount) spellings() []string {
	var s []string
	for _, l := range o.opts.all() {
		s = append(s, fmt.Sprintf("%s layer %q", l.role, l.spelled))
	}
	if len(s) == 0 {
		s = []string{"layers (none in its options)"}
	}
	return s
}

// layerOf says why a file (identity id) in directory dir is part of
// overlay o's layers, or "" when it is not: inside one of its layer
// directories (found by identity along dir and its ancestors, so a bind
// mount or /proc/PID/root path of a layer counts). When the layers' own
// spellings lead nowhere here, the kernel is asked for the top layer on
// dir's filesystem (and the rest placed from it), else dir's ancestors are
// compared with the overlay's root; when the top layer was found and
// another layer was not, any file may be in that one: refused.
func (o *overlayMount) layerOf(dir string, id FileID) string {
	if o.dev != 0 && id.Dev == o.dev {
		return "" // a file seen through the overlay itself is its merged view
	}
	ancestors := ancestorIDs(dir)
	for _, l := range o.layers {
		if ancestors[l.id] {
			return fmt.Sprintf("is in the %s layer %s of the overlay mounted at %s", l.role, l.path, o.point)
		}
	}
	if len(o.missing) == 0 {
		return ""
	}
	if !o.verified {
		for _, l := range o.guessed {
			if ancestors[l.id] {
				return fmt.Sprintf("may be in the %s layer of the overlay mounted at %s (its options spell it %s, which cannot be shown to be that layer)", l.role, o.point, l.path)
			}
		}
		if o.findTop(dir) {
			// The kernel found the top layer on this filesystem and
			// the others were placed from it: look again.
			return o.layerOf(dir, id)
		}
		if o.topAbove(dir) {
			return fmt.Sprintf("is in the top layer of the overlay mounted at %s (the overlay's root is a directory above it; its %s could not be resolved here)", o.point, strings.Join(o.missing, ", "))
		}
		// Not under the top layer, which the overlay itself names; its
		// other layers, unresolved, are taken to lie beside it.
		return ""
	}
	// The top layer was found; another was not (moved, or spelled
	// relative to a directory above its own): any file may be in it.
	return fmt.Sprintf("may be in the overlay mounted at %s, whose %s could not be found; a layer that cannot be resolved is not written", o.point, strings.Join(o.missing, ", "))
}

// topAbove reports whether the overlay's top layer directory is dir or a
// directory above it, as the overlay names its root: by file handle (any
// process may ask), or where the overlay gives none by inode number on a
// device other than the overlay's own (then a coincidence refuses too).
func (o *overlayMount) topAbove(dir string) bool {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return true
	}
	if ev, err := filepath.EvalSymlinks(dir); err == nil {
		dir = ev
	}
	for {
		var st unix.Stat_t
		if unix.Stat(dir, &st) == nil && uint64(st.Dev) != o.dev {
			if o.root.zero() {
				if st.Ino == o.rootIno {
					return true
				}
			} else if own, _, _ := handleOf(dir); own == o.root {
				return true
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return false
		}
		dir = parent
	}
}

// findTop asks the kernel for the overlay's top layer directory on the
// filesystem holding dir (its root's handle, decoded there) and, when it is
// there, places every layer from it (the spellings of one mount are all
// relative to one working directory). It reports whether it found the
// top layer; asking needs CAP_DAC_READ_SEARCH (root has it).
func (o *overlayMount) findTop(dir string) bool {
	if o.root.zero() {
		return false
	}
	id, where, ok, err := decodeDir(dir, o.root)
	if err != nil || !ok {
		return false
	}
	top := o.opts.upper
	if top == "" && len(o.opts.lowers) > 0 {
		top = o.opts.lowers[0]
	}
	o.verified = true
	o.missing = nil
	o.layers = nil
	var st unix.Stat_t
	if unix.Stat(where, &st) != nil || (FileID{Dev: uint64(st.Dev), Ino: st.Ino}) != id {
		// Found, but no path here leads to it (a container's root
		// overlay, its layers outside this mount namespace): the top
		// layer is checked by identity; the others cannot be named
		// from here either.
		o.layers = append(o.layers, ovlLayer{role: "top", path: o.point + " (its top layer)", id: id})
		return true
	}
	base, ok := baseOf(where, top)
	if !ok {
		o.missing = o.spellings()
		o.layers = append(o.layers, ovlLayer{role: "top", path: where, id: id})
		return true
	}
	o.place(base)
	return true
}

// unknownDir stands for a directory name baseOf cannot know.
const unknownDir = "\x00unknown"

// baseOf is a directory the relative spelling of a layer found at found
// was typed in: found less the spelling's own names, then one unknown
// name per leading "..". A spelling joined to it that reaches one of the
// unknown names is not found.
func baseOf(found, spelled string) (string, bool) {
	if found == "" || filepath.IsAbs(spelled) {
		return "", false
	}
	parts := strings.Split(filepath.Clean(spelled), "/")
	up := 0
	for up < len(parts) && parts[up] == ".." {
		up++
	}
	if rest := filepath.Join(parts[up:]...); rest != "" && rest != "." {
		if !strings.HasSuffix(found, "/"+rest) {
			return "", false
		}
		found = strings.TrimSuffix(found, "/"+rest)
	}
	for i := 0; i < up; i++ {
		found = filepath.Join(found, unknownDir)
	}
	return found, true
}

// ancestorIDs is the identity of dir and every directory above it,
// symlinks resolved.
func ancestorIDs(dir string) map[FileID]bool {
	ids := map[FileID]bool{}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return ids
	}
	if ev, err := filepath.EvalSymlinks(dir); err == nil {
		dir = ev
	}
	for {
		var st unix.Stat_t
		if unix.Stat(dir, &st) == nil {
			ids[FileID{Dev: uint64(st.Dev), Ino: st.Ino}] = true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ids
		}
		dir = parent
	}
}

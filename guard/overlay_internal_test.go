//go:build linux

package guard

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/qdsweep/qdsweep/internal/looptest"
)

func TestParseOverlayOpts(t *testing.T) {
	tests := []struct {
		super string
		want  overlayOpts
	}{
		{"rw,lowerdir=lower,upperdir=upper,workdir=work,uuid=on", overlayOpts{upper: "upper", work: "work", lowers: []string{"lower"}}},
		{"rw,lowerdir=/l1:/l2::/data,upperdir=/u,workdir=/w", overlayOpts{upper: "/u", work: "/w", lowers: []string{"/l1", "/l2", "/data"}}},
		// mountinfo escapes a comma inside a value; a colon inside a name is "\:".
		{`rw,lowerdir=/a\054b:/c\134:d,upperdir=/my\040u,workdir=/w`, overlayOpts{upper: "/my u", work: "/w", lowers: []string{"/a,b", "/c:d"}}},
		{"ro,lowerdir+=/l1,lowerdir+=/l2,datadir+=/d", overlayOpts{lowers: []string{"/l1", "/l2", "/d"}}},
		{"rw", overlayOpts{}},
	}
	for _, tt := range tests {
		if got := parseOverlayOpts(tt.super); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("parseOverlayOpts(%q) = %+v, want %+v", tt.super, got, tt.want)
		}
	}
}

func TestBaseOf(t *testing.T) {
	tests := []struct {
		found, spelled, base string
		ok                   bool
	}{
		{"/srv/ov/upper", "upper", "/srv/ov", true},
		{"/srv/ov/layers/u", "layers/u", "/srv/ov", true},
		{"/srv/layers/u", "../../layers/u", "/srv/" + unknownDir + "/" + unknownDir, true},
		{"/srv/ov/upper", "other", "", false},
		{"/srv/ov/upper", "/srv/ov/upper", "", false},
	}
	for _, tt := range tests {
		base, ok := baseOf(tt.found, tt.spelled)
		if base != tt.base || ok != tt.ok {
			t.Errorf("baseOf(%q, %q) = %q, %v; want %q, %v", tt.found, tt.spelled, base, ok, tt.base, tt.ok)
		}
		if ok && join(base, tt.spelled) != tt.found {
			t.Errorf("baseOf(%q, %q): %q joined back is %q", tt.found, tt.spelled, base, join(base, tt.spelled))
		}
	}
	// A sibling spelled with fewer ".." than the found layer reaches an
	// unknown name: not found, never a guess.
	base, _ := baseOf("/srv/layers/u", "../../layers/u")
	if p := join(base, "../l"); !strings.Contains(p, unknownDir) {
		t.Errorf("join(%q, ../l) = %q, want it to hold the unknown name", base, p)
	}
}

func FuzzParseOverlayOpts(f *testing.F) {
	for _, s := range []string{"rw,lowerdir=a:b,upperdir=u,workdir=w", `lowerdir=\:\\:x::y`, "lowerdir+=", "upperdir"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		o := parseOverlayOpts(s)
		for _, l := range o.lowers {
			if l == "" {
				t.Fatalf("empty lower layer from %q", s)
			}
		}
	})
}

// TestOverlayTopByRoot: an overlay typed from a directory no search starts
// in resolves no spelling; the overlay's root still names its upper layer
// (by file handle, as any process may ask), and nothing beside it.
func TestOverlayTopByRoot(t *testing.T) {
	looptest.RequireRootTools(t, "mount", "umount")
	base := t.TempDir()
	from := filepath.Join(base, "a", "sub")
	layers := filepath.Join(base, "layers")
	merged := filepath.Join(base, "m", "merged")
	for _, d := range []string{from, filepath.Join(layers, "l"), filepath.Join(layers, "u"), filepath.Join(layers, "w"), merged} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	looptest.MountOverlay(t, from, "../../layers/l", "../../layers/u", "../../layers/w", merged)
	mounts, err := Checker{}.mounts()
	if err != nil {
		t.Fatal(err)
	}
	var o *overlayMount
	for _, m := range mounts {
		if m.point == merged {
			r := resolveOverlay(m, "/")
			o = &r
		}
	}
	if o == nil || o.verified || len(o.missing) == 0 {
		t.Fatalf("overlay at %s: %+v, want its spellings unresolved", merged, o)
	}
	for dir, want := range map[string]bool{filepath.Join(layers, "u"): true, filepath.Join(layers, "u", "sub"): true,
		filepath.Join(layers, "l"): false, base: false, from: false} {
		if got := o.topAbove(dir); got != want {
			t.Errorf("topAbove(%s) = %v, want %v", dir, got, want)
		}
	}
	// Root may ask the kernel where the top layer is, and place the rest.
	if !o.findTop(base) || !o.verified || len(o.layers) != 3 {
		t.Fatalf("findTop: %+v, want three layers placed", o)
	}
	if why := o.layerOf(filepath.Join(layers, "l"), FileID{}); !strings.Contains(why, "lower layer "+filepath.Join(layers, "l")) {
		t.Errorf("a file in the lower layer: %q", why)
	}
}

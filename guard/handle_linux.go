//go:build linux

package guard

import (
	"errors"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// fid is a file handle: the kernel's own name for an inode on its
// filesystem (name_to_handle_at), the same for every path, hard link and
// bind mount that reaches the inode. For a file on an overlay it is the
// handle of the real file underneath (inner): the upper file, or for a
// file copied up from a lower layer the lower origin, as the overlay
// encodes it. Handles of two filesystems may collide only by chance
// (ext4's carries the inode's random 32-bit generation).
type fid struct {
	typ int32
	b   string
}

func (f fid) zero() bool { return f.b == "" }

// atHandleFID asks for a handle that identifies the inode without being
// decodable (Linux 6.5): the overlay answers it without nfs_export.
const atHandleFID = 0x200

// Overlay file handle types and the magic of the overlay's own handle
// format (fs/overlayfs/overlayfs.h: struct ovl_fb behind 3 bytes of
// padding in OVL_FILEID_V1, alone in V0 and in the origin xattr).
const (
	ovlFileIDV0   = 0xfb
	ovlFileIDV1   = 0xf8
	ovlMagic      = 0xfb
	ovlFlagUpper  = 1 << 2 // OVL_FH_FLAG_PATH_UPPER: the handle is of the upper file
	ovlFbHeader   = 21     // version, magic, len, flags, type, uuid[16]
	ovlV1Padding  = 3
	handleMaxSize = 128 // MAX_HANDLE_SZ
)

// handleOf returns path's file handle (following symlinks) and, for a file
// on an overlay, the real file's handle the overlay encodes (inner; upper
// reports whether it is the upper file's). A filesystem that gives no
// handles gives zero fids.
func handleOf(path string) (own, inner fid, upper bool) {
	h, _, err := unix.NameToHandleAt(unix.AT_FDCWD, path, atHandleFID)
	if errors.Is(err, unix.EINVAL) {
		h, _, err = unix.NameToHandleAt(unix.AT_FDCWD, path, 0)
	}
	if err != nil {
		return fid{}, fid{}, false
	}
	own = fid{typ: h.Type(), b: string(h.Bytes())}
	switch h.Type() {
	case ovlFileIDV1:
		if b := h.Bytes(); len(b) > ovlV1Padding {
			inner, upper = parseOvlFb(b[ovlV1Padding:])
		}
	case ovlFileIDV0:
		inner, upper = parseOvlFb(h.Bytes())
	}
	return own, inner, upper
}

// parseOvlFb reads struct ovl_fb: the real file's handle type and bytes.
func parseOvlFb(b []byte) (fid, bool) {
	if len(b) <= ovlFbHeader || b[1] != ovlMagic {
		return fid{}, false
	}
	n := int(b[2])
	if n > len(b) || n <= ovlFbHeader {
		n = len(b)
	}
	return fid{typ: int32(b[4]), b: string(b[ovlFbHeader:n])}, b[3]&ovlFlagUpper != 0
}

// originOf returns the lower file an overlay upper file was copied up
// from, as the overlay recorded it in the file's origin xattr (trusted.
// namespace, or user. for overlays mounted with userxattr); zero when the
// file has none.
func originOf(path string) fid {
	buf := make([]byte, handleMaxSize+ovlFbHeader)
	for _, name := range []string{"trusted.overlay.origin", "user.overlay.origin"} {
		n, err := unix.Getxattr(path, name, buf)
		if err != nil || n <= 0 {
			continue
		}
		if f, _ := parseOvlFb(buf[:n]); !f.zero() {
			return f
		}
	}
	return fid{}
}

// fileFids lists every handle that names the file at path: its own, the
// real file's under an overlay, and its copy-up origin.
func fileFids(path string) []fid {
	own, inner, _ := handleOf(path)
	var out []fid
	for _, f := range []fid{own, inner, originOf(path)} {
		if !f.zero() {
			out = append(out, f)
		}
	}
	return out
}

// sharesFid reports whether two handle lists name one inode.
func sharesFid(a, b []fid) bool {
	for _, x := range a {
		for _, y := range b {
			if x == y {
				return true
			}
		}
	}
	return false
}

// decodeDir opens, on the filesystem holding path, the directory handle f
// names; ok is false with err nil when that filesystem holds no such
// directory, and err says why the question could not be asked (no
// CAP_DAC_READ_SEARCH, a filesystem without handles).
func decodeDir(path string, f fid) (FileID, string, bool, error) {
	mfd, err := unix.Open(path, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0) // not O_PATH: the kernel wants a real open file
	if err != nil {
		return FileID{}, "", false, err
	}
	defer unix.Close(mfd)
	fd, err := unix.OpenByHandleAt(mfd, unix.NewFileHandle(f.typ, []byte(f.b)), unix.O_PATH|unix.O_CLOEXEC)
	switch {
	case errors.Is(err, unix.ESTALE), errors.Is(err, unix.ENOENT), errors.Is(err, unix.EINVAL), errors.Is(err, unix.EOPNOTSUPP):
		// Not a handle of this filesystem (one without handles made none).
		return FileID{}, "", false, nil
	case err != nil:
		return FileID{}, "", false, err
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil || st.Mode&unix.S_IFMT != unix.S_IFDIR {
		return FileID{}, "", false, nil
	}
	where, _ := os.Readlink("/proc/self/fd/" + strconv.Itoa(fd))
	return FileID{Dev: uint64(st.Dev), Ino: st.Ino}, where, true, nil
}

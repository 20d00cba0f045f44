//go:build linux

package guard

import (
	"os"
	"strings"
)

// stackLayer says why the file at path must not be replaced by an output,
// naming it: it is a layer of a storage stack in use (a file backing a
// loop device, mounted or not; a swap file; a file in a mounted overlay's
// layers), as StackOf finds it. "" when it is none. Replacing such a file
// by rename would leave the loop device or swap area on a deleted file
// and the user's image gone from its name.
func stackLayer(path string, _ os.FileInfo) string {
	st, err := StackOf(path)
	if err != nil {
		return "cannot be told apart from a layer of a storage stack (" + err.Error() + ")"
	}
	if err := st.Busy(); err != nil {
		why, _, _ := strings.Cut(err.Error(), "; refusing")
		return why
	}
	return ""
}

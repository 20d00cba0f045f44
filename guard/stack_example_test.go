package guard_test

import (
	"fmt"

	"github.com/qdsweep/qdsweep/guard"
)

// loopOverImage is the stack StackOf builds for a loop device whose
// backing file is an image on the root filesystem.
var loopOverImage = &guard.Stack{Path: "/dev/loop1", Layers: []guard.Layer{
	{Path: "/dev/loop1", What: "target", Rdev: 7<<8 | 1},
	{Path: "/srv/a.img", What: "backing file of /dev/loop1", File: guard.FileID{Dev: 64769, Ino: 131074}},
	{Path: "/dev/vda1", What: "device of the filesystem holding /srv/a.img", Rdev: 64769},
}}

// String is the stack in one line, top first.
func ExampleStack_String() {
	fmt.Println(loopOverImage)
	// Output: /dev/loop1 → /srv/a.img (backing file of /dev/loop1) → /dev/vda1 (device of the filesystem holding /srv/a.img)
}

// Files are the identities (device and inode) of the stack's file layers:
// here the loop device's backing file.
func ExampleStack_Files() {
	fmt.Println(loopOverImage.Files())
	// Output: [{64769 131074}]
}

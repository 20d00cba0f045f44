package guard

import "strings"

// Stack is the storage under one path, built by StackOf: the path itself,
// then every layer its bytes are written into (a loop device's backing
// file or backing device, recursively; a partition's whole disk; a stacked
// device's members), each checked for what else uses it: mounts, swap,
// holders, loop devices over it (by inode and file handle, whatever name,
// hard link, bind mount or overlay path they were attached by), and for a
// file the layers of every mounted overlay (upper, lower and work
// directories, resolved through the mount, not by the option string).
type Stack struct {
	// Path is the path the stack was built for.
	Path string
	// Layers are the path and every layer under it, top first.
	Layers []Layer
	busy   error
}

// Layer is one layer of a Stack.
type Layer struct {
	// Path names the layer: a block device node (/dev/loop0) or a file.
	Path string
	// What it is to the layer above: "target", "backing device of
	// /dev/loop1", "backing file of /dev/loop1", "whole disk of
	// /dev/sda2", "member of /dev/dm-0", "device of the filesystem
	// holding /srv/a.img".
	What string
	// File is a file layer's identity (zero for a block device).
	File FileID
	// Rdev is a block device layer's device number (zero for a file).
	Rdev uint64
}

// Busy returns why the stack must not be written, nil when nothing in it
// is mounted, swap, held, backing a loop device (the path itself), backing
// something in use (a layer under the path), or in a mounted overlay's
// layers. The error wraps ErrDeviceBusy and ErrWriteRefused; no flag
// overrides it.
func (s *Stack) Busy() error {
	if s == nil {
		return nil
	}
	return s.busy
}

// Files lists the identities of the stack's file layers (the path, when
// it is a file, and every backing file under it).
func (s *Stack) Files() []FileID {
	var ids []FileID
	for _, l := range s.Layers {
		if l.File != (FileID{}) {
			ids = append(ids, l.File)
		}
	}
	return ids
}

// String is the stack in one line: "/dev/loop1 → /dev/loop0 (backing
// device of /dev/loop1) → /srv/a.img (backing file of /dev/loop0)"; a
// file's ends at its filesystem's device ("/srv/a.img → /dev/vda (device
// of the filesystem holding /srv/a.img)").
func (s *Stack) String() string {
	parts := make([]string, len(s.Layers))
	for i, l := range s.Layers {
		parts[i] = l.Path
		if i > 0 {
			parts[i] += " (" + l.What + ")"
		}
	}
	return strings.Join(parts, " → ")
}

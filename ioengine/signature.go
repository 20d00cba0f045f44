package ioengine

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"strings"
)

// Signature is an on-disk format found at the start or end of a device: a
// filesystem, a swap area, a volume-manager or RAID member, an encrypted
// volume or a partition table. Its magic numbers and offsets follow the
// published on-disk formats (the same ones util-linux's libblkid probes).
type Signature struct {
	// Type is the format's short name, spelled as blkid spells TYPE:
	// "ext2", "ext3", "ext4", "jbd", "xfs", "btrfs", "swap", "LVM2_member",
	// "crypto_LUKS", "zfs_member", "ntfs", "vfat", "gpt", "dos",
	// "linux_raid_member", "iso9660".
	Type string
	// Kind says what the format is, for messages: "filesystem", "swap area",
	// "LVM2 physical volume", "LUKS encrypted volume", "ZFS pool member",
	// "partition table", "MD RAID member", "external journal".
	Kind string
	// UUID identifies the volume when the format carries one ("" otherwise).
	UUID string
	// Label is the volume label when the format carries one ("" otherwise).
	Label string
	// Entries is the number of used partition entries (partition tables only).
	Entries int
	// Offset is where the magic was found, in bytes from the start of the device.
	Offset int64
}

// String describes the signature for a message, e.g.
// "an ext4 filesystem (UUID 0b1c…, label data)" or
// "a GPT partition table with 2 entries".
func (s Signature) String() string {
	var b strings.Builder
	name := s.Type
	switch s.Type {
	case "gpt":
		name = "GPT"
	case "dos":
		name = "DOS/MBR"
	case "LVM2_member":
		name = ""
	case "crypto_LUKS":
		name = ""
	case "zfs_member":
		name = ""
	case "linux_raid_member":
		name = ""
	case "ntfs":
		name = "NTFS"
	case "vfat":
		name = "FAT"
	case "xfs":
		name = "XFS"
	case "btrfs":
		name = "Btrfs"
	case "iso9660":
		name = "ISO 9660"
	case "jbd":
		name = "ext3/4"
	case "swap":
		name = ""
	}
	phrase := strings.TrimSpace(name + " " + s.Kind)
	b.WriteString(sigArticle(phrase))
	b.WriteString(" ")
	b.WriteString(phrase)
	if s.Entries > 0 {
		fmt.Fprintf(&b, " with %d %s", s.Entries, sigPlural(s.Entries, "entry", "entries"))
	}
	var extra []string
	if s.UUID != "" {
		extra = append(extra, "UUID "+s.UUID)
	}
	if s.Label != "" {
		extra = append(extra, "label "+s.Label)
	}
	if len(extra) > 0 {
		b.WriteString(" (" + strings.Join(extra, ", ") + ")")
	}
	return b.String()
}

func sigArticle(phrase string) string {
	for _, p := range []string{"LVM", "MD ", "XFS", "NTFS", "ISO"} {
		if strings.HasPrefix(phrase, p) {
			return "an"
		}
	}
	if phrase != "" && strings.ContainsRune("aeiou", rune(phrase[0])) {
		return "an"
	}
	return "a"
}

func sigPlural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// sigWindow is how much of each end of a device DetectSignature reads: 1 MiB.
const sigWindow = 1 << 20

// sigImage holds the first and last sigWindow bytes of a device of size bytes.
type sigImage struct {
	size       int64
	head, tail []byte
	tailOff    int64 // device offset of tail[0]
}

func readSigImage(r io.ReaderAt, size int64) *sigImage {
	im := &sigImage{size: size}
	n := int64(sigWindow)
	if size < n {
		n = size
	}
	im.head = sigReadAt(r, 0, n)
	if size > sigWindow {
		off := size - sigWindow
		if off < sigWindow {
			off = sigWindow // do not read the head twice
		}
		im.tailOff = off
		im.tail = sigReadAt(r, off, size-off)
	}
	return im
}

// readSome reads up to n bytes at off and returns what it got.
func sigReadAt(r io.ReaderAt, off, n int64) []byte {
	if n <= 0 {
		return nil
	}
	buf := make([]byte, n)
	got, _ := r.ReadAt(buf, off)
	if got < 0 {
		got = 0
	}
	return buf[:got]
}

// at returns the n bytes at device offset off, or nil when they are not all
// inside the head or tail window.
func (im *sigImage) at(off, n int64) []byte {
	if off < 0 || n < 0 {
		return nil
	}
	if off+n <= int64(len(im.head)) {
		return im.head[off : off+n]
	}
	if off >= im.tailOff && im.tail != nil && off+n <= im.tailOff+int64(len(im.tail)) {
		return im.tail[off-im.tailOff : off-im.tailOff+n]
	}
	return nil
}

// has reports whether magic sits at device offset off.
func (im *sigImage) has(off int64, magic string) bool {
	b := im.at(off, int64(len(magic)))
	return b != nil && string(b) == magic
}

func (im *sigImage) u16(off int64) (uint16, bool) {
	b := im.at(off, 2)
	if b == nil {
		return 0, false
	}
	return binary.LittleEndian.Uint16(b), true
}

func (im *sigImage) u32(off int64) (uint32, bool) {
	b := im.at(off, 4)
	if b == nil {
		return 0, false
	}
	return binary.LittleEndian.Uint32(b), true
}

func (im *sigImage) u64(off int64) (uint64, bool) {
	b := im.at(off, 8)
	if b == nil {
		return 0, false
	}
	return binary.LittleEndian.Uint64(b), true
}

// prober looks for one format; it returns ok=false when the format is absent.
type prober func(im *sigImage) (Signature, bool)

// probers run in this order: RAID and volume-manager members first (they
// wrap filesystems), then filesystems, then partition tables (a FAT or NTFS
// boot sector also ends in 0x55AA, and hybrid ISO images carry an MBR).
var probers = []prober{
	probeMD, probeLVM2, probeLUKS, probeZFS,
	probeExt, probeXFS, probeBtrfs, probeSwap, probeNTFS, probeFAT, probeISO9660,
	probeGPT, probeDOS,
}

// DetectSignature looks for a known on-disk format in the first and last MiB
// of a device or sigImage of size bytes read through r. It reports the first
// format found, in the order RAID/volume members, filesystems, partition
// tables. Read errors count as "nothing there": a short or failing reader
// yields no signature rather than an error, so a caller that must be safe
// should also check that the device could be read.
func DetectSignature(r io.ReaderAt, size int64) (Signature, bool) {
	if r == nil || size <= 0 {
		return Signature{}, false
	}
	im := readSigImage(r, size)
	for _, p := range probers {
		if s, ok := p(im); ok {
			return s, true
		}
	}
	return Signature{}, false
}

// uuid formats 16 bytes as 8-4-4-4-12 hex; all-zero UUIDs give "".
func sigUUID(b []byte) string {
	if len(b) != 16 || sigAllZero(b) {
		return ""
	}
	h := hex.EncodeToString(b)
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}

// guidLE formats a GPT/EFI GUID, whose first three fields are little-endian.
func sigGUID(b []byte) string {
	if len(b) != 16 || sigAllZero(b) {
		return ""
	}
	c := []byte{b[3], b[2], b[1], b[0], b[5], b[4], b[7], b[6]}
	c = append(c, b[8:16]...)
	return sigUUID(c)
}

func sigAllZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

// text trims a fixed-size, NUL- or space-padded on-disk string and drops
// anything unprintable so it is safe in a one-line message.
func sigText(b []byte) string {
	if i := bytes.IndexByte(b, 0); i >= 0 {
		b = b[:i]
	}
	var sb strings.Builder
	for _, c := range b {
		if c >= 0x20 && c < 0x7f {
			sb.WriteByte(c)
		}
	}
	return strings.TrimSpace(sb.String())
}

// probeExt finds ext2/3/4 and external ext journals: the superblock sits at
// 1024 with magic 0xEF53 at +0x38; UUID at +0x68, label at +0x78.
func probeExt(im *sigImage) (Signature, bool) {
	const sb = 1024
	if m, ok := im.u16(sb + 0x38); !ok || m != 0xEF53 {
		return Signature{}, false
	}
	compat, _ := im.u32(sb + 0x5C)
	incompat, _ := im.u32(sb + 0x60)
	roCompat, _ := im.u32(sb + 0x64)
	s := Signature{Kind: "filesystem", Offset: sb + 0x38,
		UUID: sigUUID(im.at(sb+0x68, 16)), Label: sigText(im.at(sb+0x78, 16))}
	const (
		compatHasJournal  = 0x4
		incompatJournalDv = 0x8
		// ext3 knows only these incompat/ro_compat features; anything else is ext4.
		ext3Incompat = 0x2 | 0x4 | 0x10 // filetype, recover, meta_bg
		ext3RoCompat = 0x1 | 0x2 | 0x4  // sparse_super, large_file, btree_dir
	)
	switch {
	case incompat&incompatJournalDv != 0:
		s.Type, s.Kind = "jbd", "external journal"
	case incompat&^ext3Incompat != 0 || roCompat&^ext3RoCompat != 0:
		s.Type = "ext4"
	case compat&compatHasJournal != 0:
		s.Type = "ext3"
	default:
		s.Type = "ext2"
	}
	return s, true
}

// probeXFS: "XFSB" at 0, UUID at 32, label (12 bytes) at 108.
func probeXFS(im *sigImage) (Signature, bool) {
	if !im.has(0, "XFSB") {
		return Signature{}, false
	}
	return Signature{Type: "xfs", Kind: "filesystem", UUID: sigUUID(im.at(32, 16)), Label: sigText(im.at(108, 12))}, true
}

// probeBtrfs: superblock at 64 KiB, magic "_BHRfS_M" at +0x40, fsid at
// +0x20, label (256 bytes) at +0x12b.
func probeBtrfs(im *sigImage) (Signature, bool) {
	const sb = 64 << 10
	if !im.has(sb+0x40, "_BHRfS_M") {
		return Signature{}, false
	}
	return Signature{Type: "btrfs", Kind: "filesystem", Offset: sb + 0x40,
		UUID: sigUUID(im.at(sb+0x20, 16)), Label: sigText(im.at(sb+0x12b, 256))}, true
}

// probeSwap: "SWAPSPACE2"/"SWAP-SPACE" (or a hibernation sigImage) in the last
// 10 bytes of the first page, for page sizes 4 KiB to 64 KiB; UUID at 1036,
// label at 1052.
func probeSwap(im *sigImage) (Signature, bool) {
	magics := []string{"SWAPSPACE2", "SWAP-SPACE", "S1SUSPEND", "S2SUSPEND", "ULSUSPEND", "LINHIB0001"}
	for page := int64(4096); page <= 65536; page *= 2 {
		for _, m := range magics {
			off := page - 10
			if !im.has(off, m) {
				continue
			}
			s := Signature{Type: "swap", Kind: "swap area", Offset: off}
			if m == "SWAPSPACE2" {
				s.UUID, s.Label = sigUUID(im.at(1036, 16)), sigText(im.at(1052, 16))
			}
			return s, true
		}
	}
	return Signature{}, false
}

// probeLVM2: a label header "LABELONE" in one of the first four 512-byte
// sectors with "LVM2 001" at +24; the PV UUID (32 chars) follows at the
// offset stored at +20.
func probeLVM2(im *sigImage) (Signature, bool) {
	for sec := int64(0); sec < 4; sec++ {
		off := sec * 512
		if !im.has(off, "LABELONE") || !im.has(off+24, "LVM2 001") {
			continue
		}
		s := Signature{Type: "LVM2_member", Kind: "LVM2 physical volume", Offset: off}
		if rel, ok := im.u32(off + 20); ok && rel < 512 {
			if id := sigText(im.at(off+int64(rel), 32)); len(id) == 32 {
				s.UUID = id[0:6] + "-" + id[6:10] + "-" + id[10:14] + "-" + id[14:18] + "-" + id[18:22] + "-" + id[22:26] + "-" + id[26:32]
			}
		}
		return s, true
	}
	return Signature{}, false
}

// probeLUKS: "LUKS\xba\xbe" at 0 (LUKS1 and LUKS2 primary header), or the
// LUKS2 secondary header "SKUL\xba\xbe" at one of its fixed offsets; the
// UUID is a 40-byte string at 168 in both versions.
func probeLUKS(im *sigImage) (Signature, bool) {
	offs := []int64{0, 0x4000, 0x8000, 0x10000, 0x20000, 0x40000, 0x80000, 0x100000, 0x200000, 0x400000}
	for i, off := range offs {
		magic := "SKUL\xba\xbe"
		if i == 0 {
			magic = "LUKS\xba\xbe"
		}
		if !im.has(off, magic) {
			continue
		}
		s := Signature{Type: "crypto_LUKS", Kind: "LUKS encrypted volume", Offset: off, UUID: sigText(im.at(off+168, 40))}
		if v, ok := im.u16(off + 6); ok && (v == 0x0200 || v == 0x0002) { // big-endian 2
			s.Label = sigText(im.at(off+24, 48))
		}
		return s, true
	}
	return Signature{}, false
}

// probeZFS counts ZFS uberblocks (magic 0x00bab10c, either byte order) in
// the 128 KiB uberblock ring of each of the four 256 KiB vdev labels: two at
// the start of the device and two at the end (aligned down to 256 KiB).
// Four or more uberblocks mark a pool member.
func probeZFS(im *sigImage) (Signature, bool) {
	const (
		label    = 256 << 10
		ringOff  = 128 << 10
		ringSize = 128 << 10
		ubStep   = 1 << 10
		magic    = 0x00bab10c
		want     = 4
	)
	end := im.size &^ (label - 1)
	labels := []int64{0, label, end - 2*label, end - label}
	found, first := 0, int64(-1)
	for _, l := range labels {
		if l < 0 {
			continue
		}
		for o := l + ringOff; o < l+ringOff+ringSize; o += ubStep {
			v, ok := im.u64(o)
			if !ok {
				break
			}
			if v == magic || v == 0x0cb1ba0000000000 {
				found++
				if first < 0 {
					first = o
				}
			}
		}
	}
	if found < want {
		return Signature{}, false
	}
	return Signature{Type: "zfs_member", Kind: "ZFS pool member", Offset: first}, true
}

// probeNTFS: OEM id "NTFS    " at 3 of the boot sector; serial (u64) at 0x48.
func probeNTFS(im *sigImage) (Signature, bool) {
	if !im.has(3, "NTFS    ") {
		return Signature{}, false
	}
	s := Signature{Type: "ntfs", Kind: "filesystem", Offset: 3}
	if v, ok := im.u64(0x48); ok && v != 0 {
		s.UUID = fmt.Sprintf("%016X", v)
	}
	return s, true
}

// probeFAT: a boot sector with an x86 jump, 0x55AA at 510 and the type
// string "FAT12   "/"FAT16   " at 54 (volume id at 39, label at 43) or
// "FAT32   " at 82 (volume id at 67, label at 71), or "MSDOS"/"MSWIN" OEM id
// with a sane BPB.
func probeFAT(im *sigImage) (Signature, bool) {
	boot := im.at(0, 512)
	if boot == nil || boot[510] != 0x55 || boot[511] != 0xAA {
		return Signature{}, false
	}
	if boot[0] != 0xEB && boot[0] != 0xE9 {
		return Signature{}, false
	}
	s := Signature{Type: "vfat", Kind: "filesystem"}
	volID := func(off int) string {
		v := binary.LittleEndian.Uint32(boot[off:])
		if v == 0 {
			return ""
		}
		return fmt.Sprintf("%04X-%04X", v>>16, v&0xffff)
	}
	label := func(off int) string {
		l := sigText(boot[off : off+11])
		if l == "NO NAME" {
			return ""
		}
		return l
	}
	switch {
	case bytes.HasPrefix(boot[82:], []byte("FAT32   ")):
		s.Offset, s.UUID, s.Label = 82, volID(67), label(71)
		return s, true
	case bytes.HasPrefix(boot[54:], []byte("FAT12   ")), bytes.HasPrefix(boot[54:], []byte("FAT16   ")),
		bytes.HasPrefix(boot[54:], []byte("FAT     ")):
		s.Offset, s.UUID, s.Label = 54, volID(39), label(43)
		return s, true
	case bytes.HasPrefix(boot[3:], []byte("MSDOS")) || bytes.HasPrefix(boot[3:], []byte("MSWIN")):
		bps := binary.LittleEndian.Uint16(boot[11:])
		spc := boot[13]
		fats := boot[16]
		if (bps == 512 || bps == 1024 || bps == 2048 || bps == 4096) && spc != 0 && spc&(spc-1) == 0 && (fats == 1 || fats == 2) {
			s.Offset = 3
			return s, true
		}
	}
	return Signature{}, false
}

// probeISO9660: a volume descriptor "CD001" at 32769 (after the type byte at
// 32768); the primary descriptor's volume id (32 bytes) is at +40.
func probeISO9660(im *sigImage) (Signature, bool) {
	const vd = 32768
	if !im.has(vd+1, "CD001") {
		return Signature{}, false
	}
	return Signature{Type: "iso9660", Kind: "filesystem", Offset: vd + 1, Label: sigText(im.at(vd+40, 32))}, true
}

// probeMD finds Linux MD RAID superblocks, magic 0xa92b4efc little-endian:
// v1.1 at 0, v1.2 at 4 KiB, v1.0 8–12 KiB before the end (4 KiB aligned) and
// v0.90 in the last 64 KiB-aligned 64 KiB. v1 keeps the array UUID at +16.
func probeMD(im *sigImage) (Signature, bool) {
	const magic = 0xa92b4efc
	sectors := im.size / 512
	v10 := ((sectors - 16) &^ 7) * 512
	v090 := (im.size &^ (64<<10 - 1)) - 64<<10
	for _, off := range []int64{0, 4096, v10} {
		if off < 0 {
			continue
		}
		if m, ok := im.u32(off); ok && m == magic {
			if major, _ := im.u32(off + 4); major == 1 {
				return Signature{Type: "linux_raid_member", Kind: "MD RAID member", Offset: off,
					UUID: sigUUID(im.at(off+16, 16)), Label: sigText(im.at(off+32, 32))}, true
			}
		}
	}
	if v090 >= 0 {
		if m, ok := im.u32(v090); ok && m == magic {
			if major, _ := im.u32(v090 + 4); major == 0 {
				s := Signature{Type: "linux_raid_member", Kind: "MD RAID member", Offset: v090}
				a, b := im.at(v090+20, 4), im.at(v090+52, 12)
				if a != nil && b != nil {
					s.UUID = sigUUID(append(append([]byte{}, a...), b...))
				}
				return s, true
			}
		}
	}
	return Signature{}, false
}

// probeGPT: an "EFI PART" header at LBA 1 (512- or 4096-byte sectors) whose
// partition array holds at least one entry with a non-zero type GUID. The
// disk GUID is at +56, the array LBA at +72, its count at +80 and the entry
// size at +84.
func probeGPT(im *sigImage) (Signature, bool) {
	for _, sector := range []int64{512, 4096} {
		hdr := sector
		if !im.has(hdr, "EFI PART") {
			continue
		}
		lba, _ := im.u64(hdr + 72)
		count, _ := im.u32(hdr + 80)
		esize, _ := im.u32(hdr + 84)
		if esize < 128 || esize > 4096 || count == 0 || count > 1024 || lba == 0 || lba > uint64(sigWindow/sector) {
			continue
		}
		base := int64(lba) * sector
		used := 0
		for i := int64(0); i < int64(count); i++ {
			typ := im.at(base+i*int64(esize), 16)
			if typ == nil {
				break
			}
			if !sigAllZero(typ) {
				used++
			}
		}
		if used == 0 {
			continue
		}
		return Signature{Type: "gpt", Kind: "partition table", Entries: used, Offset: hdr,
			UUID: sigGUID(im.at(hdr+56, 16))}, true
	}
	return Signature{}, false
}

// probeDOS: an MBR with 0x55AA at 510 whose four entries at 446 (16 bytes
// each) have boot flags 0x00/0x80 and at least one non-empty entry (type
// byte at +4 and a non-zero sector count at +12). The disk id is at 440.
func probeDOS(im *sigImage) (Signature, bool) {
	mbr := im.at(0, 512)
	if mbr == nil || mbr[510] != 0x55 || mbr[511] != 0xAA {
		return Signature{}, false
	}
	used := 0
	for i := 0; i < 4; i++ {
		e := mbr[446+16*i : 446+16*i+16]
		if e[0] != 0 && e[0] != 0x80 {
			return Signature{}, false
		}
		// 0xEE is GPT's protective entry: the GPT probe speaks for that disk.
		if e[4] != 0 && e[4] != 0xEE && binary.LittleEndian.Uint32(e[12:]) != 0 {
			used++
		}
	}
	if used == 0 {
		return Signature{}, false
	}
	s := Signature{Type: "dos", Kind: "partition table", Entries: used, Offset: 510}
	if id := binary.LittleEndian.Uint32(mbr[440:]); id != 0 {
		s.UUID = fmt.Sprintf("%08x", id)
	}
	return s, true
}

package guard

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
	// "linux_raid_member", "iso9660", "exfat", "f2fs", "squashfs", "bcache",
	// "udf", "nilfs2", "jfs", "reiserfs", "reiser4", "hfsplus", "apfs", "vdo",
	// "BitLocker", "oracleasm".
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

// sigNames is how a message names each type (blkid's TYPE) whose name is
// not its own: a proper name, or none where Kind says it all ("an LVM2
// physical volume", not "an LVM2_member LVM2 physical volume").
var sigNames = map[string]string{
	"gpt":               "GPT",
	"dos":               "DOS/MBR",
	"LVM2_member":       "",
	"crypto_LUKS":       "",
	"zfs_member":        "",
	"linux_raid_member": "",
	"ntfs":              "NTFS",
	"vfat":              "FAT",
	"xfs":               "XFS",
	"btrfs":             "Btrfs",
	"iso9660":           "ISO 9660",
	"jbd":               "ext3/4",
	"swap":              "",
	"exfat":             "exFAT",
	"f2fs":              "F2FS",
	"squashfs":          "SquashFS",
	"bcache":            "",
	"udf":               "UDF",
	"nilfs2":            "NILFS2",
	"jfs":               "JFS",
	"reiserfs":          "ReiserFS",
	"reiser4":           "Reiser4",
	"hfsplus":           "HFS+",
	"apfs":              "APFS",
	"vdo":               "",
	"BitLocker":         "",
	"oracleasm":         "",
}

// String describes the signature for a message, e.g.
// "an ext4 filesystem (UUID 0b1c…, label data)" or
// "a GPT partition table with 2 entries".
func (s Signature) String() string {
	var b strings.Builder
	name := s.Type
	if n, ok := sigNames[s.Type]; ok {
		name = n
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
	for _, p := range []string{"LVM", "MD ", "XFS", "NTFS", "ISO", "F2FS", "HFS", "APFS"} {
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

// The regions a device must read as zeros to count as blank, and that the
// probers look at. Every volume format keeps its superblock (or a copy of
// it) in one of them:
//   - the first 4 MiB + 64 KiB: boot sectors and primary superblocks at 0
//     (MBR, GPT, FAT, exFAT, NTFS, XFS, SquashFS, VDO, APFS, Oracle ASM,
//     BitLocker), 1 KiB (ext2/3/4, F2FS, NILFS2, HFS+), 4 KiB (bcache,
//     MD 1.2), the first four sectors (LVM2), 8 KiB and 64 KiB (ReiserFS),
//     32 KiB (JFS, ISO 9660, the UDF volume recognition sequence), 64 KiB
//     (Btrfs), up to 64 KiB (swap, by page size), 128 KiB–1 MiB (UDF anchor
//     at sector 256 for 512 B–4 KiB sectors), 0–512 KiB (ZFS labels 0 and
//     1), 16 KiB–4 MiB (LUKS2 secondary headers), 1 MiB and 2 MiB (VMFS);
//   - the last 2 MiB: GPT backup header, MD 0.90 and 1.0, ZFS labels 2 and 3,
//     the NILFS2 secondary superblock, UDF anchors at the last sector and 256
//     before it, firmware RAID metadata (DDF, Intel IMSM, Promise up to
//     3087 sectors before the end);
//   - 4 KiB at 64 MiB and at 256 GiB: the Btrfs superblock mirrors.
const (
	headWindow   = 4<<20 + 64<<10
	tailWindow   = 2 << 20
	mirrorWindow = 4 << 10
)

// mirrorOffsets are the Btrfs superblock copies beyond the head window.
var mirrorOffsets = []int64{64 << 20, 256 << 30}

// chunk is bytes read at a device offset.
type chunk struct {
	off  int64
	data []byte
}

// sigImage holds the regions of a device of size bytes that Scan reads.
type sigImage struct {
	size   int64
	chunks []chunk // in offset order, not overlapping
}

// scanSpans returns the regions Scan reads on a device of size bytes, in
// offset order and not overlapping.
func scanSpans(size int64) []chunk {
	var spans []chunk
	add := func(off, n int64) {
		if off >= size {
			return
		}
		if off+n > size {
			n = size - off
		}
		if k := len(spans); k > 0 {
			last := &spans[k-1]
			end := last.off + int64(len(last.data))
			if off < end {
				if off+n <= end {
					return
				}
				n -= end - off
				off = end
			}
		}
		if n > 0 {
			spans = append(spans, chunk{off: off, data: make([]byte, 0, n)})
		}
	}
	add(0, headWindow)
	for _, m := range mirrorOffsets {
		if m+mirrorWindow <= size-tailWindow {
			add(m, mirrorWindow)
		}
	}
	add(max(0, size-tailWindow), tailWindow)
	return spans
}

// readSigImage reads every scan region of a device of size bytes. A read
// that fails or comes up short is an error: what could not be read cannot be
// called blank.
func readSigImage(r io.ReaderAt, size int64) (*sigImage, error) {
	im := &sigImage{size: size}
	for _, sp := range scanSpans(size) {
		buf := make([]byte, cap(sp.data))
		n, err := r.ReadAt(buf, sp.off)
		if n < len(buf) {
			if err == nil {
				err = io.ErrUnexpectedEOF
			}
			im.chunks = append(im.chunks, chunk{off: sp.off, data: buf[:max(n, 0)]})
			return im, fmt.Errorf("read %d bytes at offset %d: %w", len(buf), sp.off, err)
		}
		im.chunks = append(im.chunks, chunk{off: sp.off, data: buf})
	}
	return im, nil
}

// at returns the n bytes at device offset off, or nil when they are not all
// inside one region that was read.
func (im *sigImage) at(off, n int64) []byte {
	if off < 0 || n < 0 {
		return nil
	}
	for _, c := range im.chunks {
		if off >= c.off && off+n <= c.off+int64(len(c.data)) {
			return c.data[off-c.off : off-c.off+n]
		}
	}
	return nil
}

// firstNonZero returns the device offset of the first non-zero byte read, or -1.
func (im *sigImage) firstNonZero() int64 {
	for _, c := range im.chunks {
		for i, b := range c.data {
			if b != 0 {
				return c.off + int64(i)
			}
		}
	}
	return -1
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
	probeMD, probeLVM2, probeLUKS, probeZFS, probeBcache, probeMagic(vdoMagic),
	probeMagic(bitlockerMagic), probeMagic(asmMagic),
	probeExt, probeXFS, probeBtrfs, probeF2FS, probeNILFS, probeReiser, probeJFS,
	probeMagic(squashLE), probeMagic(squashBE), probeMagic(apfsMagic), probeHFSPlus,
	probeSwap, probeExFAT, probeNTFS, probeFAT, probeUDF, probeISO9660,
	probeGPT, probeDOS,
}

// Detect looks for a known on-disk format in the regions Scan reads of a
// device or image of size bytes read through r. It reports the first format
// found, in the order RAID/volume members, filesystems, partition tables.
// What could not be read counts as "nothing known there": a caller that
// must be safe uses Scan, which also reports unread and non-zero regions.
func Detect(r io.ReaderAt, size int64) (Signature, bool) {
	if r == nil || size <= 0 {
		return Signature{}, false
	}
	im, _ := readSigImage(r, size)
	return im.detect()
}

func (im *sigImage) detect() (Signature, bool) {
	for _, p := range probers {
		if s, ok := p(im); ok {
			return s, true
		}
	}
	return Signature{}, false
}

// Finding is what Scan found on a device: a known format, or else the first
// non-zero byte in the regions where formats keep their superblocks.
type Finding struct {
	Signature Signature // the format found, when Known
	Known     bool      // a known format was recognised
	// NonZero is the device offset (bytes) of the first non-zero byte
	// scanned, or -1 when every scanned byte is zero.
	NonZero int64
}

// Blank reports whether nothing was found: no known format and only zeros.
func (f Finding) Blank() bool { return !f.Known && f.NonZero < 0 }

// String describes the finding for a message: "an exFAT filesystem (…)" or
// "non-zero data at offset 1048576".
func (f Finding) String() string {
	switch {
	case f.Known:
		return f.Signature.String()
	case f.NonZero >= 0:
		return fmt.Sprintf("non-zero data at offset %d", f.NonZero)
	}
	return "nothing (blank)"
}

// Scan reads the regions of a device of size bytes where any volume format
// keeps its superblock (see headWindow) and reports what is there. This is
// default deny: a device is blank only when every one of those bytes reads
// as zero; a read error or short read is returned as an error, never as
// blank.
func Scan(r io.ReaderAt, size int64) (Finding, error) {
	if r == nil || size <= 0 {
		return Finding{NonZero: -1}, fmt.Errorf("device size %d: nothing to read", size)
	}
	im, err := readSigImage(r, size)
	if err != nil {
		return Finding{NonZero: -1}, err
	}
	f := Finding{NonZero: im.firstNonZero()}
	f.Signature, f.Known = im.detect()
	return f, nil
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

// probeBtrfs: superblock at 64 KiB (mirrors at 64 MiB and 256 GiB), magic
// "_BHRfS_M" at +0x40, fsid at +0x20, label (256 bytes) at +0x12b.
func probeBtrfs(im *sigImage) (Signature, bool) {
	for _, sb := range append([]int64{64 << 10}, mirrorOffsets...) {
		if !im.has(sb+0x40, "_BHRfS_M") {
			continue
		}
		return Signature{Type: "btrfs", Kind: "filesystem", Offset: sb + 0x40,
			UUID: sigUUID(im.at(sb+0x20, 16)), Label: sigText(im.at(sb+0x12b, 256))}, true
	}
	return Signature{}, false
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
		if esize < 128 || esize > 4096 || count == 0 || count > 1024 || lba == 0 || lba > uint64(headWindow/sector) {
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

// magic is a format recognised by a fixed string at a fixed offset.
type magic struct {
	typ, kind string
	off       int64
	text      string
}

var (
	squashLE       = magic{"squashfs", "filesystem", 0, "hsqs"}
	squashBE       = magic{"squashfs", "filesystem", 0, "sqsh"}
	apfsMagic      = magic{"apfs", "container", 32, "NXSB"}
	vdoMagic       = magic{"vdo", "VDO volume", 0, "dmvdo001"}
	bitlockerMagic = magic{"BitLocker", "BitLocker encrypted volume", 3, "-FVE-FS-"}
	asmMagic       = magic{"oracleasm", "Oracle ASM disk", 32, "ORCLDISK"}
)

func probeMagic(m magic) prober {
	return func(im *sigImage) (Signature, bool) {
		if !im.has(m.off, m.text) {
			return Signature{}, false
		}
		return Signature{Type: m.typ, Kind: m.kind, Offset: m.off}, true
	}
}

// probeExFAT: OEM name "EXFAT   " at 3 of the boot sector; volume serial at 100.
func probeExFAT(im *sigImage) (Signature, bool) {
	if !im.has(3, "EXFAT   ") {
		return Signature{}, false
	}
	s := Signature{Type: "exfat", Kind: "filesystem", Offset: 3}
	if v, ok := im.u32(100); ok && v != 0 {
		s.UUID = fmt.Sprintf("%04X-%04X", v>>16, v&0xffff)
	}
	return s, true
}

// probeF2FS: superblock at 1 KiB with magic 0xF2F52010 (little-endian) and
// the UUID at +108.
func probeF2FS(im *sigImage) (Signature, bool) {
	const sb = 1024
	if m, ok := im.u32(sb); !ok || m != 0xF2F52010 {
		return Signature{}, false
	}
	return Signature{Type: "f2fs", Kind: "filesystem", Offset: sb, UUID: sigUUID(im.at(sb+108, 16))}, true
}

// probeBcache: superblock at 4 KiB with a 16-byte magic at +24 and the
// device UUID at +40.
func probeBcache(im *sigImage) (Signature, bool) {
	const sb = 4096
	if !im.has(sb+24, "\xc6\x85\x73\xf6\x4e\x1a\x45\xca\x82\x65\xf5\x7f\x48\xba\x6d\x81") {
		return Signature{}, false
	}
	return Signature{Type: "bcache", Kind: "bcache cache or backing device", Offset: sb + 24, UUID: sigUUID(im.at(sb+40, 16))}, true
}

// probeNILFS: superblock at 1 KiB (secondary in the last 4 KiB-aligned 4
// KiB) with magic 0x3434 at +6 and revision 2 at +0; UUID at +152, label
// (80 bytes) at +168.
func probeNILFS(im *sigImage) (Signature, bool) {
	for _, sb := range []int64{1024, ((im.size >> 12) - 1) << 12} {
		if sb < 0 {
			continue
		}
		m, ok1 := im.u16(sb + 6)
		rev, ok2 := im.u32(sb)
		if !ok1 || !ok2 || m != 0x3434 || rev != 2 {
			continue
		}
		return Signature{Type: "nilfs2", Kind: "filesystem", Offset: sb + 6,
			UUID: sigUUID(im.at(sb+152, 16)), Label: sigText(im.at(sb+168, 80))}, true
	}
	return Signature{}, false
}

// probeReiser: ReiserFS 3.x ("ReIsErFs", "ReIsEr2Fs", "ReIsEr3Fs" at +52 of
// a superblock at 64 KiB, or at 8 KiB for 3.5) and Reiser4 ("ReIsEr4" at 64
// KiB). 3.6 keeps its UUID at +84 and label at +100.
func probeReiser(im *sigImage) (Signature, bool) {
	const sb = 64 << 10
	if im.has(sb, "ReIsEr4") {
		return Signature{Type: "reiser4", Kind: "filesystem", Offset: sb}, true
	}
	for _, off := range []int64{sb, 8 << 10} {
		for _, m := range []string{"ReIsErFs", "ReIsEr2Fs", "ReIsEr3Fs"} {
			if im.has(off+52, m) {
				s := Signature{Type: "reiserfs", Kind: "filesystem", Offset: off + 52}
				if m != "ReIsErFs" {
					s.UUID, s.Label = sigUUID(im.at(off+84, 16)), sigText(im.at(off+100, 16))
				}
				return s, true
			}
		}
	}
	return Signature{}, false
}

// probeJFS: "JFS1" at 32 KiB; UUID at +136, label at +152.
func probeJFS(im *sigImage) (Signature, bool) {
	const sb = 32 << 10
	if !im.has(sb, "JFS1") {
		return Signature{}, false
	}
	return Signature{Type: "jfs", Kind: "filesystem", Offset: sb, UUID: sigUUID(im.at(sb+136, 16)), Label: sigText(im.at(sb+152, 16))}, true
}

// probeHFSPlus: volume header at 1 KiB with "H+" (version 4) or "HX"
// (version 5), big-endian.
func probeHFSPlus(im *sigImage) (Signature, bool) {
	b := im.at(1024, 4)
	if b == nil || !((b[0] == 'H' && b[1] == '+' && b[2] == 0 && b[3] == 4) || (b[0] == 'H' && b[1] == 'X' && b[2] == 0 && b[3] == 5)) {
		return Signature{}, false
	}
	return Signature{Type: "hfsplus", Kind: "filesystem", Offset: 1024}, true
}

// probeUDF finds a UDF volume: an "NSR02"/"NSR03" descriptor in the volume
// recognition sequence from 32 KiB (2 KiB descriptors, or one per 4 KiB
// sector), or an anchor volume descriptor pointer (tag 2 recording its own
// location 256) at sector 256 for 512 B to 4 KiB sectors.
func probeUDF(im *sigImage) (Signature, bool) {
	const vrs = 32 << 10
	for _, step := range []int64{2048, 4096} {
		for k := int64(0); k < 64; k++ {
			off := vrs + k*step
			if im.has(off+1, "NSR02") || im.has(off+1, "NSR03") {
				return Signature{Type: "udf", Kind: "filesystem", Offset: off + 1}, true
			}
		}
	}
	for _, bs := range []int64{512, 1024, 2048, 4096} {
		off := 256 * bs
		tag, ok1 := im.u16(off)
		loc, ok2 := im.u32(off + 12)
		if ok1 && ok2 && tag == 2 && loc == 256 {
			return Signature{Type: "udf", Kind: "filesystem", Offset: off}, true
		}
	}
	return Signature{}, false
}

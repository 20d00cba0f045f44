package guard_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qdsweep/qdsweep/guard"
)

// img is a synthetic device image under construction.
type img []byte

func newImg(size int) img { return make(img, size) }

func (b img) put(off int, s string) img  { copy(b[off:], s); return b }
func (b img) le16(off int, v uint16) img { binary.LittleEndian.PutUint16(b[off:], v); return b }
func (b img) le32(off int, v uint32) img { binary.LittleEndian.PutUint32(b[off:], v); return b }
func (b img) le64(off int, v uint64) img { binary.LittleEndian.PutUint64(b[off:], v); return b }
func (b img) raw(off int, p ...byte) img { copy(b[off:], p); return b }
func (b img) bootSig() img               { return b.raw(510, 0x55, 0xAA) }
func (b img) mbrEntry(i int, typ byte, n uint32) img {
	e := 446 + 16*i
	b[e+4] = typ
	binary.LittleEndian.PutUint32(b[e+8:], 2048)
	binary.LittleEndian.PutUint32(b[e+12:], n)
	return b
}

var testUUID = []byte{0x0b, 0x1c, 0x2d, 0x3e, 0x4f, 0x50, 0x61, 0x72, 0x83, 0x94, 0xa5, 0xb6, 0xc7, 0xd8, 0xe9, 0xfa}

const testUUIDText = "0b1c2d3e-4f50-6172-8394-a5b6c7d8e9fa"

func ext(compat, incompat, ro uint32) img {
	return newImg(64<<10).le16(1024+0x38, 0xEF53).le32(1024+0x5C, compat).le32(1024+0x60, incompat).
		le32(1024+0x64, ro).raw(1024+0x68, testUUID...).put(1024+0x78, "data")
}

func gpt(sector int, entries int) img {
	b := newImg(1<<20).bootSig().mbrEntry(0, 0xEE, 0xFFFFFFFF)
	h := sector
	b.put(h, "EFI PART").le32(h+8, 0x00010000).le32(h+12, 92).le64(h+24, 1).
		raw(h+56, testUUID...).le64(h+72, 2).le32(h+80, 128).le32(h+84, 128)
	for i := 0; i < entries; i++ {
		b.raw(2*sector+128*i, 0xaf, 0x3d, 0xc6, 0x0f, 0x83, 0x84, 0x72, 0x47, 0x8e, 0x79, 0x3d, 0x69, 0xd8, 0x47, 0x7d, 0xe4)
	}
	return b
}

func zfs(size int) img {
	b := newImg(size)
	for _, l := range []int{0, 256 << 10} {
		for i := 0; i < 3; i++ {
			b.le64(l+128<<10+i*1024, 0x00bab10c)
		}
	}
	return b
}

func TestDetectSynthetic(t *testing.T) {
	const mib = 1 << 20
	tests := []struct {
		name      string
		image     img
		wantType  string // "" for no signature
		wantUUID  string
		wantLabel string
		wantText  string // substring of Signature.String()
	}{
		{"zeros", newImg(4 * mib), "", "", "", ""},
		{"tiny", newImg(100), "", "", "", ""},
		{"ext2", ext(0, 0x2, 0x1), "ext2", testUUIDText, "data", "an ext2 filesystem (UUID " + testUUIDText + ", label data)"},
		{"ext3", ext(0x4, 0x2, 0x3), "ext3", testUUIDText, "data", "ext3 filesystem"},
		{"ext4 extents", ext(0x4, 0x2|0x40, 0x1), "ext4", testUUIDText, "data", "an ext4 filesystem"},
		{"ext4 huge_file", ext(0x4, 0x2, 0x8), "ext4", testUUIDText, "data", ""},
		{"ext journal", ext(0, 0x8, 0), "jbd", testUUIDText, "data", "external journal"},
		{"xfs", newImg(mib).put(0, "XFSB").raw(32, testUUID...).put(108, "scratch"), "xfs", testUUIDText, "scratch", "an XFS filesystem"},
		{"btrfs", newImg(mib).put(0x10040, "_BHRfS_M").raw(0x10020, testUUID...).put(0x1012b, "pool"), "btrfs", testUUIDText, "pool", "a Btrfs filesystem"},
		{"swap 4k", newImg(mib).put(4086, "SWAPSPACE2").raw(1036, testUUID...).put(1052, "sw"), "swap", testUUIDText, "sw", "a swap area"},
		{"swap 64k page", newImg(mib).put(65536-10, "SWAPSPACE2"), "swap", "", "", ""},
		{"swap hibernated", newImg(mib).put(4086, "S1SUSPEND"), "swap", "", "", ""},
		{"lvm2 sector 1", newImg(mib).put(512, "LABELONE").le32(512+20, 32).put(512+24, "LVM2 001").
			put(512+32, "abcdefghijklmnopqrstuvwxyz012345"), "LVM2_member", "abcdef-ghij-klmn-opqr-stuv-wxyz-012345", "", "an LVM2 physical volume"},
		{"luks1", newImg(mib).put(0, "LUKS\xba\xbe").raw(6, 0, 1).put(168, testUUIDText), "crypto_LUKS", testUUIDText, "", "a LUKS encrypted volume"},
		{"luks2", newImg(mib).put(0, "LUKS\xba\xbe").raw(6, 0, 2).put(24, "secret").put(168, testUUIDText), "crypto_LUKS", testUUIDText, "secret", ""},
		{"luks2 secondary only", newImg(mib).put(0x4000, "SKUL\xba\xbe").raw(0x4006, 0, 2), "crypto_LUKS", "", "", ""},
		{"zfs head labels", zfs(4 * mib), "zfs_member", "", "", "a ZFS pool member"},
		{"zfs too few uberblocks", newImg(mib).le64(128<<10, 0x00bab10c), "", "", "", ""},
		{"ntfs", newImg(mib).raw(0, 0xEB, 0x52, 0x90).put(3, "NTFS    ").le64(0x48, 0x1122334455667788).bootSig(), "ntfs", "1122334455667788", "", "an NTFS filesystem"},
		{"fat16", newImg(mib).raw(0, 0xEB, 0x3C, 0x90).put(3, "mkfs.fat").le32(39, 0xDEADBEEF).put(43, "BOOT       ").put(54, "FAT16   ").bootSig(), "vfat", "DEAD-BEEF", "BOOT", "a FAT filesystem"},
		{"fat12", newImg(mib).raw(0, 0xEB, 0x3C, 0x90).put(54, "FAT12   ").put(43, "NO NAME    ").bootSig(), "vfat", "", "", ""},
		{"fat32", newImg(mib).raw(0, 0xEB, 0x58, 0x90).le32(67, 0x12345678).put(71, "EFI        ").put(82, "FAT32   ").bootSig(), "vfat", "1234-5678", "EFI", ""},
		{"fat msdos bpb", newImg(mib).raw(0, 0xEB, 0x3C, 0x90).put(3, "MSDOS5.0").le16(11, 512).raw(13, 4).raw(16, 2).bootSig(), "vfat", "", "", ""},
		{"iso9660", newImg(mib).raw(32768, 1).put(32769, "CD001").raw(32774, 1).put(32768+40, "UBUNTU"), "iso9660", "", "UBUNTU", "an ISO 9660 filesystem"},
		{"md 1.2", newImg(mib).le32(4096, 0xa92b4efc).le32(4100, 1).raw(4096+16, testUUID...).put(4096+32, "host:0"), "linux_raid_member", testUUIDText, "host:0", "an MD RAID member"},
		{"md 1.1", newImg(mib).le32(0, 0xa92b4efc).le32(4, 1), "linux_raid_member", "", "", ""},
		{"md 1.0 at end", newImg(4*mib).le32(4*mib-8192, 0xa92b4efc).le32(4*mib-8192+4, 1), "linux_raid_member", "", "", ""},
		{"md 0.90 at end", newImg(4*mib).le32(4*mib-65536, 0xa92b4efc).le32(4*mib-65536+4, 0), "linux_raid_member", "", "", ""},
		{"md magic, bad version", newImg(mib).le32(4096, 0xa92b4efc).le32(4100, 7), "", "", "", ""},
		{"gpt 512 two entries", gpt(512, 2), "gpt", "3e2d1c0b-504f-7261-8394-a5b6c7d8e9fa", "", "a GPT partition table with 2 entries"},
		{"gpt 4096 one entry", gpt(4096, 1), "gpt", "3e2d1c0b-504f-7261-8394-a5b6c7d8e9fa", "", "a GPT partition table with 1 entry"},
		{"gpt no entries", gpt(512, 0), "", "", "", ""},
		{"dos one entry", newImg(mib).bootSig().mbrEntry(0, 0x83, 8192).le32(440, 0xcafef00d), "dos", "cafef00d", "", "a DOS/MBR partition table with 1 entry"},
		{"dos three entries", newImg(mib).bootSig().mbrEntry(0, 0x83, 8).mbrEntry(1, 0x82, 8).mbrEntry(3, 0x07, 8), "dos", "", "", "with 3 entries"},
		{"dos empty", newImg(mib).bootSig(), "", "", "", ""},
		{"dos bad boot flag", newImg(mib).bootSig().mbrEntry(0, 0x83, 8).raw(446, 0x12), "", "", "", ""},
		{"ext4 wins over stale mbr", ext(0x4, 0x42, 0x1).bootSig().mbrEntry(0, 0x83, 8), "ext4", testUUIDText, "data", ""},
		{"label sanitised", ext(0, 0, 0).put(1024+0x78, "a\nb\x1b[2Jc"), "ext2", testUUIDText, "ab[2Jc", ""},
		{"exfat", newImg(mib).raw(0, 0xEB, 0x76, 0x90).put(3, "EXFAT   ").le32(100, 0x12345678).bootSig(), "exfat", "1234-5678", "", "an exFAT filesystem"},
		{"f2fs", newImg(mib).le32(1024, 0xF2F52010).raw(1024+108, testUUID...), "f2fs", testUUIDText, "", "an F2FS filesystem"},
		{"squashfs", newImg(mib).put(0, "hsqs"), "squashfs", "", "", "a SquashFS filesystem"},
		{"bcache", newImg(mib).raw(4096+24, 0xc6, 0x85, 0x73, 0xf6, 0x4e, 0x1a, 0x45, 0xca, 0x82, 0x65, 0xf5, 0x7f, 0x48, 0xba, 0x6d, 0x81).raw(4096+40, testUUID...),
			"bcache", testUUIDText, "", "a bcache cache or backing device"},
		{"udf vrs", newImg(mib).put(32769, "BEA01").put(32769+2048, "NSR02").put(32769+4096, "TEA01"), "udf", "", "", "a UDF filesystem"},
		{"udf anchor 2k sectors", newImg(2*mib).le16(256*2048, 2).le32(256*2048+12, 256), "udf", "", "", ""},
		{"nilfs2", newImg(mib).le32(1024, 2).le16(1024+6, 0x3434).raw(1024+152, testUUID...).put(1024+168, "nil"), "nilfs2", testUUIDText, "nil", "a NILFS2 filesystem"},
		{"nilfs2 magic, bad revision", newImg(mib).le32(1024, 9).le16(1024+6, 0x3434), "", "", "", ""},
		{"jfs", newImg(mib).put(32768, "JFS1").raw(32768+136, testUUID...).put(32768+152, "jfsvol"), "jfs", testUUIDText, "jfsvol", "a JFS filesystem"},
		{"reiserfs 3.6", newImg(mib).put(65536+52, "ReIsEr2Fs").raw(65536+84, testUUID...).put(65536+100, "rfs"), "reiserfs", testUUIDText, "rfs", "a ReiserFS filesystem"},
		{"reiserfs 3.5 at 8k", newImg(mib).put(8192+52, "ReIsErFs"), "reiserfs", "", "", ""},
		{"reiser4", newImg(mib).put(65536, "ReIsEr4"), "reiser4", "", "", "a Reiser4 filesystem"},
		{"hfs+", newImg(mib).put(1024, "H+").raw(1026, 0, 4), "hfsplus", "", "", "an HFS+ filesystem"},
		{"btrfs mirror at 64 MiB only", newImg(64*mib+8192).put(64*mib+0x40, "_BHRfS_M"), "btrfs", "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sig, ok := guard.Detect(bytes.NewReader(tt.image), int64(len(tt.image)))
			if tt.wantType == "" {
				if ok {
					t.Fatalf("found %+v, want nothing", sig)
				}
				return
			}
			if !ok {
				t.Fatalf("found nothing, want %s", tt.wantType)
			}
			if sig.Type != tt.wantType || sig.UUID != tt.wantUUID || sig.Label != tt.wantLabel {
				t.Errorf("got type %q UUID %q label %q, want %q %q %q", sig.Type, sig.UUID, sig.Label, tt.wantType, tt.wantUUID, tt.wantLabel)
			}
			if !strings.Contains(sig.String(), tt.wantText) {
				t.Errorf("String() = %q, want it to contain %q", sig.String(), tt.wantText)
			}
		})
	}
}

// TestDetectSignatureTail checks formats found only at the end of a large
// device: the tail window is read separately from the head.
func TestDetectTail(t *testing.T) {
	const size = 64 << 20
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		off  int64
		data []byte
		want string
	}{
		{"md 1.0", size - 8192, le32s(0xa92b4efc, 1), "linux_raid_member"},
		{"md 0.90", size - 65536, le32s(0xa92b4efc, 0), "linux_raid_member"},
		{"zfs tail labels", size - 512<<10 + 128<<10, bytes.Repeat(append(le32s(0x00bab10c, 0), make([]byte, 1016)...), 4), "zfs_member"},
		{"nothing in the middle", size / 2, []byte("XFSB"), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "_"))
			f, err := os.Create(p)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if err := f.Truncate(size); err != nil {
				t.Fatal(err)
			}
			if _, err := f.WriteAt(tc.data, tc.off); err != nil {
				t.Fatal(err)
			}
			sig, ok := guard.Detect(f, size)
			if sig.Type != tc.want || ok != (tc.want != "") {
				t.Fatalf("got %q (found %v), want %q", sig.Type, ok, tc.want)
			}
		})
	}
}

func le32s(vs ...uint32) []byte {
	b := make([]byte, 4*len(vs))
	for i, v := range vs {
		binary.LittleEndian.PutUint32(b[4*i:], v)
	}
	return b
}

// TestDetectSignatureRealTools formats image files with the tools installed
// here and checks DetectSignature agrees with blkid on type and UUID.
func TestDetectRealTools(t *testing.T) {
	tests := []struct {
		name   string
		size   int64
		tool   string
		args   []string // the image path is appended
		stdin  string
		want   string
		blkTag string // blkid tag holding the identity we report as UUID ("" to skip)
	}{
		{"ext4", 16 << 20, "mkfs.ext4", []string{"-q", "-F", "-L", "qdtest"}, "", "ext4", "UUID"},
		{"ext2", 8 << 20, "mkfs.ext2", []string{"-q", "-F"}, "", "ext2", "UUID"},
		{"ext3", 16 << 20, "mkfs.ext3", []string{"-q", "-F"}, "", "ext3", "UUID"},
		{"swap", 8 << 20, "mkswap", []string{"-L", "qdswap"}, "", "swap", "UUID"},
		{"vfat", 8 << 20, "mkfs.vfat", nil, "", "vfat", "UUID"},
		{"xfs", 320 << 20, "mkfs.xfs", []string{"-q", "-f"}, "", "xfs", "UUID"},
		{"btrfs", 128 << 20, "mkfs.btrfs", []string{"-q", "-f"}, "", "btrfs", "UUID"},
		{"gpt", 16 << 20, "sfdisk", []string{"-q"}, "label: gpt\n,4M\n,4M\n", "gpt", "PTUUID"},
		{"dos", 16 << 20, "sfdisk", []string{"-q"}, "label: dos\n,4M\n,4M\n,4M\n", "dos", "PTUUID"},
		{"exfat", 16 << 20, "mkfs.exfat", nil, "", "exfat", "UUID"},
		{"f2fs", 64 << 20, "mkfs.f2fs", []string{"-q", "-f"}, "", "f2fs", "UUID"},
		{"squashfs", 0, "mksquashfs", nil, "", "squashfs", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tool, err := exec.LookPath(tt.tool)
			if err != nil {
				t.Skipf("%s not installed", tt.tool)
			}
			p := filepath.Join(t.TempDir(), tt.name+".img")
			if err := os.WriteFile(p, nil, 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Truncate(p, tt.size); err != nil {
				t.Fatal(err)
			}
			args := append(tt.args, p)
			if tt.name == "squashfs" { // mksquashfs SOURCE DEST [options]
				args = []string{t.TempDir(), p, "-noappend", "-quiet"}
			}
			cmd := exec.Command(tool, args...)
			cmd.Stdin = strings.NewReader(tt.stdin)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("%s: %v\n%s", tt.tool, err, out)
			}
			f, err := os.Open(p)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			size := tt.size
			if fi, err := f.Stat(); err == nil && fi.Size() > size {
				size = fi.Size()
			}
			sig, ok := guard.Detect(f, size)
			if !ok || sig.Type != tt.want {
				t.Fatalf("DetectSignature = %+v (found %v), want type %s", sig, ok, tt.want)
			}
			t.Logf("%s: %s", tt.name, sig)
			if tt.blkTag == "" {
				return
			}
			if _, err := exec.LookPath("blkid"); err != nil {
				return
			}
			out, err := exec.Command("blkid", "-p", "-o", "value", "-s", tt.blkTag, p).Output()
			if err != nil {
				t.Fatalf("blkid: %v", err)
			}
			if got := strings.TrimSpace(string(out)); !strings.EqualFold(got, sig.UUID) {
				t.Errorf("UUID %q, blkid says %s=%q", sig.UUID, tt.blkTag, got)
			}
		})
	}
}

// TestScanDefaultDeny: anything but zeros where formats keep superblocks is
// not blank, and Scan says where; unread regions are an error, never blank.
func TestScanDefaultDeny(t *testing.T) {
	const mib = 1 << 20
	for _, tt := range []struct {
		name string
		size int
		at   int // -1: all zeros
	}{
		{"zeros", 16 * mib, -1},
		{"byte at 0", 16 * mib, 0},
		{"byte in the first MiB", 16 * mib, 777},
		{"byte at 1 MiB (UDF anchor, 4 KiB sectors)", 16 * mib, 1 << 20},
		{"byte at 2 MiB (VMFS)", 16 * mib, 2 << 20},
		{"byte at 4 MiB (LUKS2 secondary header)", 16 * mib, 4 << 20},
		{"last byte", 16 * mib, 16*mib - 1},
		{"byte 1.5 MiB before the end (firmware RAID)", 16 * mib, 16*mib - 3*mib/2},
		{"byte at 64 MiB (Btrfs mirror)", 128 * mib, 64 << 20},
		{"tiny device, all read", 3000, 2999},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b := newImg(tt.size)
			if tt.at >= 0 {
				b[tt.at] = 0x5a
			}
			f, err := guard.Scan(bytes.NewReader(b), int64(tt.size))
			if err != nil {
				t.Fatal(err)
			}
			if tt.at < 0 {
				if !f.Blank() {
					t.Fatalf("zeros: %v, want blank", f)
				}
				return
			}
			want := fmt.Sprintf("non-zero data at offset %d", tt.at)
			if f.Blank() || f.Known || f.String() != want {
				t.Fatalf("got %q (known %v), want %q", f, f.Known, want)
			}
		})
	}
	// A device that cannot be read whole is not blank.
	if _, err := guard.Scan(bytes.NewReader(make([]byte, 1000)), 8*mib); err == nil {
		t.Error("short read counted as blank")
	}
	// A known format is named rather than its first byte.
	f, err := guard.Scan(bytes.NewReader(newImg(mib).put(3, "EXFAT   ")), mib)
	if err != nil || !f.Known || !strings.Contains(f.String(), "exFAT") {
		t.Errorf("exFAT: %v %v", f, err)
	}
}

// FuzzDetectSignature feeds arbitrary images (and sizes that disagree with
// them) to DetectSignature: it must not panic, and what it reports must be
// a known type with printable identity fields.
func FuzzDetect(f *testing.F) {
	seeds := []img{
		ext(0x4, 0x42, 0x1)[:2048],
		newImg(4096).put(0, "XFSB"),
		newImg(4096).put(4086, "SWAPSPACE2"),
		newImg(1024).put(512, "LABELONE").le32(512+20, 500).put(512+24, "LVM2 001"),
		newImg(512).put(0, "LUKS\xba\xbe"),
		newImg(8192).le32(4096, 0xa92b4efc).le32(4100, 1),
		newImg(512).raw(0, 0xEB).put(54, "FAT16   ").bootSig(),
		newImg(512).put(3, "NTFS    "),
		newImg(512).bootSig().mbrEntry(0, 0x83, 1),
		gpt(512, 1)[:2048],
		newImg(2048).bootSig().put(512, "EFI PART").le64(512+72, 2).le32(512+80, 1000).le32(512+84, 128),
		newImg(0),
	}
	for _, s := range seeds {
		f.Add([]byte(s), int64(len(s)))
	}
	f.Add([]byte("short"), int64(1<<30))
	known := map[string]bool{"ext2": true, "ext3": true, "ext4": true, "jbd": true, "xfs": true, "btrfs": true,
		"swap": true, "LVM2_member": true, "crypto_LUKS": true, "zfs_member": true, "ntfs": true, "vfat": true,
		"gpt": true, "dos": true, "linux_raid_member": true, "iso9660": true}
	f.Fuzz(func(t *testing.T, data []byte, size int64) {
		sig, ok := guard.Detect(bytes.NewReader(data), size)
		if !ok {
			return
		}
		if !known[sig.Type] {
			t.Fatalf("unknown type %q", sig.Type)
		}
		for _, r := range sig.String() {
			if r < 0x20 || r == 0x7f {
				t.Fatalf("unprintable byte in %q", sig.String())
			}
		}
	})
}

// DetectSignature reads only the first and last MiB, through any io.ReaderAt:
// an *os.File opened on a device, or an in-memory image as here.
func ExampleDetect() {
	image := make([]byte, 1<<20)
	copy(image[0:], "XFSB")      // XFS superblock magic
	copy(image[108:], "scratch") // its label
	copy(image[32:], testUUID)   // its UUID
	sig, ok := guard.Detect(bytes.NewReader(image), int64(len(image)))
	fmt.Println(ok, sig.Type)
	fmt.Println(sig)
	// Output:
	// true xfs
	// an XFS filesystem (UUID 0b1c2d3e-4f50-6172-8394-a5b6c7d8e9fa, label scratch)
}

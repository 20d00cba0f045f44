package report_test

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"os"
	"testing"
)

// decodePNG reads a PNG file.
func decodePNG(t *testing.T, path string) image.Image {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return img
}

// inkShare is the share of pixels that are not (near) white.
func inkShare(img image.Image) float64 {
	b := img.Bounds()
	ink := 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if r < 0xF000 || g < 0xF000 || bl < 0xF000 {
				ink++
			}
		}
	}
	return float64(ink) / float64(b.Dx()*b.Dy())
}

// colourCount counts pixels within a small distance of c (antialiasing
// blends edges; line and marker centres keep the exact colour).
func colourCount(img image.Image, c color.RGBA) int {
	b := img.Bounds()
	n := 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if near(r>>8, c.R) && near(g>>8, c.G) && near(bl>>8, c.B) {
				n++
			}
		}
	}
	return n
}

func near(a uint32, b uint8) bool {
	d := int(a) - int(b)
	return d >= -6 && d <= 6
}

// differingShare compares two images the way gonum/plot's cmpimg does,
// by perceived colour distance (YIQ), and returns the share of pixels
// further apart than delta (0 same … 1 black vs white). Different sizes
// count as entirely different.
func differingShare(a, b image.Image, delta float64) float64 {
	if a.Bounds() != b.Bounds() {
		return 1
	}
	bd := a.Bounds()
	const maxDiff = 35215.0 // YIQ distance of black and white
	lim := maxDiff * delta * delta
	diff := 0
	for y := bd.Min.Y; y < bd.Max.Y; y++ {
		for x := bd.Min.X; x < bd.Max.X; x++ {
			if yiq2(a.At(x, y), b.At(x, y)) > lim {
				diff++
			}
		}
	}
	return float64(diff) / float64(bd.Dx()*bd.Dy())
}

// yiq2 is the weighted squared YIQ distance of two colours (Kotsarenko and
// Ramos, "Measuring perceived color difference using YIQ NTSC transmission
// color space in mobile applications").
func yiq2(c1, c2 color.Color) float64 {
	f := func(c color.Color) (y, i, q float64) {
		r, g, b, _ := c.RGBA()
		rf, gf, bf := float64(r>>8), float64(g>>8), float64(b>>8)
		return rf*0.29889531 + gf*0.58662247 + bf*0.11448223,
			rf*0.59597799 - gf*0.27417610 - bf*0.32180189,
			rf*0.21147017 - gf*0.52261711 + bf*0.31114694
	}
	y1, i1, q1 := f(c1)
	y2, i2, q2 := f(c2)
	dy, di, dq := y1-y2, i1-i2, q1-q2
	return 0.5053*dy*dy + 0.299*di*di + 0.1957*dq*dq
}

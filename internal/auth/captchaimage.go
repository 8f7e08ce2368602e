package auth

import (
	"bytes"
	crand "crypto/rand"
	"encoding/base64"
	"image"
	"image/color"
	"image/png"
	"math"
	"math/big"
	"math/rand/v2"
	"strings"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"
)

// The captcha is drawn here rather than by a captcha library: the one we used
// loaded about 11 MB of TrueType fonts at process start, a quarter of the
// server's idle memory, to draw four characters. The 7×13 bitmap face of
// x/image is a few kilobytes; each glyph is scaled, rotated and warped so the
// picture is not the font's pixels.
const (
	captchaWidth    = 130
	captchaHeight   = 48
	captchaLength   = 4
	captchaScale    = 2.6                               // glyph pixels per font pixel
	captchaNoise    = 40                                // stray dots
	captchaAlphabet = "ABCDEFGHJKMNPQRSTUVWXYZ23456789" // no 0/O, 1/I/L
)

// glyphMasks holds the 7×13 alpha mask of every alphabet character.
var glyphMasks = func() map[byte]*image.Alpha {
	face := basicfont.Face7x13
	masks := make(map[byte]*image.Alpha, len(captchaAlphabet))
	for i := 0; i < len(captchaAlphabet); i++ {
		c := captchaAlphabet[i]
		m := image.NewAlpha(image.Rect(0, 0, face.Advance, face.Height))
		d := font.Drawer{Dst: m, Src: image.Opaque, Face: face, Dot: fixed.P(0, face.Ascent)}
		d.DrawString(string(c))
		masks[c] = m
	}
	return masks
}()

// drawCaptcha draws one captcha: its answer (lower case; checks ignore case)
// and its image as a PNG data URL.
func drawCaptcha() (answer, dataURL string, err error) {
	text := make([]byte, captchaLength)
	for i := range text {
		n, err := crand.Int(crand.Reader, big.NewInt(int64(len(captchaAlphabet))))
		if err != nil {
			return "", "", err
		}
		text[i] = captchaAlphabet[n.Int64()]
	}
	img := renderCaptcha(string(text), rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64())))
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&buf, img); err != nil {
		return "", "", err
	}
	return strings.ToLower(string(text)), "data:image/png;base64," + base64.StdEncoding.EncodeToString(buf.Bytes()), nil
}

// renderCaptcha paints text on a light background with a wavy warp, two
// crossing curves and scattered dots. r only decides the look, never the text.
func renderCaptcha(text string, r *rand.Rand) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, captchaWidth, captchaHeight))
	bg := color.NRGBA{uint8(235 + r.IntN(20)), uint8(235 + r.IntN(20)), uint8(235 + r.IntN(20)), 255}
	for i := 0; i < len(img.Pix); i += 4 {
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = bg.R, bg.G, bg.B, bg.A
	}

	// One sine warp for the whole picture bends the baseline.
	amp, period, phase := 2+3*r.Float64(), 40+30*r.Float64(), 2*math.Pi*r.Float64()
	cellW := float64(captchaWidth-16) / float64(len(text))
	for i := 0; i < len(text); i++ {
		mask := glyphMasks[text[i]]
		ink := darkColor(r)
		angle := (r.Float64() - 0.5) * 0.7 // about ±20°
		scale := captchaScale * (0.9 + 0.25*r.Float64())
		cx := 8 + cellW*(float64(i)+0.5) + (r.Float64()-0.5)*6
		cy := float64(captchaHeight)/2 + (r.Float64()-0.5)*6
		paintGlyph(img, mask, ink, cx, cy, angle, scale, func(x float64) float64 {
			return amp * math.Sin(2*math.Pi*x/period+phase)
		})
	}
	for l := 0; l < 2; l++ {
		paintCurve(img, darkColor(r), r)
	}
	for d := 0; d < captchaNoise; d++ {
		c := darkColor(r)
		c.A = 160
		blend(img, r.IntN(captchaWidth), r.IntN(captchaHeight), c, 1)
	}
	return img
}

// paintGlyph maps every destination pixel around (cx, cy) back into the glyph
// mask (inverse rotation and scale, plus the warp) and blends the sampled
// coverage in ink.
func paintGlyph(img *image.NRGBA, mask *image.Alpha, ink color.NRGBA, cx, cy, angle, scale float64, warp func(float64) float64) {
	mw, mh := float64(mask.Rect.Dx()), float64(mask.Rect.Dy())
	sin, cos := math.Sincos(angle)
	half := math.Hypot(mw, mh) * scale / 2
	for y := int(cy - half); y <= int(cy+half); y++ {
		for x := int(cx - half); x <= int(cx+half); x++ {
			dx, dy := float64(x)-cx, float64(y)-cy-warp(float64(x))
			// Rotate back, then unscale into mask coordinates centred on the glyph.
			u := (dx*cos+dy*sin)/scale + mw/2
			v := (-dx*sin+dy*cos)/scale + mh/2
			if a := 1.5 * sampleAlpha(mask, u, v); a > 0 { // 1.5: bolder strokes than the 1-pixel font
				blend(img, x, y, ink, a)
			}
		}
	}
}

// sampleAlpha reads the mask bilinearly at (u, v); outside it is 0.
func sampleAlpha(m *image.Alpha, u, v float64) float64 {
	u, v = u-0.5, v-0.5
	x0, y0 := int(math.Floor(u)), int(math.Floor(v))
	fx, fy := u-float64(x0), v-float64(y0)
	at := func(x, y int) float64 {
		if x < 0 || y < 0 || x >= m.Rect.Dx() || y >= m.Rect.Dy() {
			return 0
		}
		return float64(m.Pix[y*m.Stride+x]) / 255
	}
	top := at(x0, y0)*(1-fx) + at(x0+1, y0)*fx
	bottom := at(x0, y0+1)*(1-fx) + at(x0+1, y0+1)*fx
	return top*(1-fy) + bottom*fy
}

// paintCurve strokes a random sine curve across the picture, two pixels thick.
func paintCurve(img *image.NRGBA, ink color.NRGBA, r *rand.Rand) {
	y0 := float64(captchaHeight) * (0.25 + 0.5*r.Float64())
	amp, period, phase := 4+8*r.Float64(), 50+60*r.Float64(), 2*math.Pi*r.Float64()
	for x := 0; x < captchaWidth; x++ {
		y := y0 + amp*math.Sin(2*math.Pi*float64(x)/period+phase)
		blend(img, x, int(y), ink, 0.8)
		blend(img, x, int(y)+1, ink, 0.5)
	}
}

func darkColor(r *rand.Rand) color.NRGBA {
	return color.NRGBA{uint8(r.IntN(140)), uint8(r.IntN(140)), uint8(r.IntN(140)), 255}
}

// blend lays ink over the pixel at (x, y) with coverage a in [0, 1].
func blend(img *image.NRGBA, x, y int, ink color.NRGBA, a float64) {
	if x < 0 || y < 0 || x >= captchaWidth || y >= captchaHeight {
		return
	}
	if a > 1 {
		a = 1
	}
	a *= float64(ink.A) / 255
	i := img.PixOffset(x, y)
	p := img.Pix[i : i+3 : i+3]
	p[0] = uint8(float64(p[0])*(1-a) + float64(ink.R)*a)
	p[1] = uint8(float64(p[1])*(1-a) + float64(ink.G)*a)
	p[2] = uint8(float64(p[2])*(1-a) + float64(ink.B)*a)
}

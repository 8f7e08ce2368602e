package auth

import (
	"bytes"
	"encoding/base64"
	"image/png"
	"os"
	"strings"
	"testing"
)

func TestDrawCaptcha(t *testing.T) {
	answer, url, err := drawCaptcha()
	if err != nil {
		t.Fatal(err)
	}
	if len(answer) != captchaLength || strings.Trim(answer, strings.ToLower(captchaAlphabet)) != "" {
		t.Fatalf("answer %q: want %d characters of the alphabet", answer, captchaLength)
	}
	raw, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(url, "data:image/png;base64,"))
	if err != nil || !strings.HasPrefix(url, "data:image/png;base64,") {
		t.Fatalf("not a PNG data URL: %.40s (%v)", url, err)
	}
	img, err := png.Decode(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != captchaWidth || b.Dy() != captchaHeight {
		t.Fatalf("size %v", b)
	}
	// Every character's column band carries ink: count dark pixels per quarter.
	band := (captchaWidth - 16) / captchaLength
	for i := 0; i < captchaLength; i++ {
		dark := 0
		for x := 8 + i*band; x < 8+(i+1)*band; x++ {
			for y := 0; y < captchaHeight; y++ {
				r, g, b, _ := img.At(x, y).RGBA()
				if (r+g+b)/3 < 0x9000 {
					dark++
				}
			}
		}
		if dark < 40 {
			t.Errorf("character %d: only %d inked pixels", i, dark)
		}
	}
	if p := os.Getenv("BLUEBIRD_CAPTCHA_PNG"); p != "" {
		_ = os.WriteFile(p, raw, 0o644)
	}
}

func TestCaptchaAnswersDiffer(t *testing.T) {
	seen := map[string]bool{}
	for i := 0; i < 20; i++ {
		a, _, err := drawCaptcha()
		if err != nil {
			t.Fatal(err)
		}
		seen[a] = true
	}
	if len(seen) < 15 {
		t.Fatalf("20 captchas gave only %d distinct answers", len(seen))
	}
}

func BenchmarkDrawCaptcha(b *testing.B) {
	for b.Loop() {
		if _, _, err := drawCaptcha(); err != nil {
			b.Fatal(err)
		}
	}
}

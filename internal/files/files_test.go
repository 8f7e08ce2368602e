package files_test

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"io"
	"math/rand/v2"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bluebird/console/internal/apptest"
	"github.com/bluebird/console/internal/files"
)

func TestMain(m *testing.M) { apptest.Main(m) }

const (
	avatarTypeZh = "上传头像图片只能是 JPG/PNG 格式!"
	avatarTypeEn = "Avatar images can only be JPG/PNG!"
	avatarSizeZh = "上传头像图片大小不能超过 500KB!"
	avatarSizeEn = "Avatar images cannot be larger than 500KB!"
)

// pngOf encodes a w×h image; noisy pixels do not compress, so the file is about 4·w·h bytes.
func pngOf(t *testing.T, w, h int, noisy bool) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	r := rand.New(rand.NewPCG(1, 2))
	for y := range h {
		for x := range w {
			c := color.NRGBA{uint8(x), uint8(y), 200, 255}
			if noisy {
				c = color.NRGBA{uint8(r.Uint32()), uint8(r.Uint32()), uint8(r.Uint32()), uint8(r.Uint32())}
			}
			img.Set(x, y, c)
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func jpegOf(t *testing.T) []byte {
	var b bytes.Buffer
	if err := jpeg.Encode(&b, image.NewRGBA(image.Rect(0, 0, 8, 8)), nil); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func gifOf(t *testing.T) []byte {
	var b bytes.Buffer
	if err := gif.Encode(&b, image.NewPaletted(image.Rect(0, 0, 4, 4), []color.Color{color.Black, color.White}), nil); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// zipOf builds a zip with the given entries (an Office file is a zip with known parts).
func zipOf(t *testing.T, names ...string) []byte {
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for _, n := range names {
		w, err := zw.Create(n)
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(w, `<?xml version="1.0" encoding="UTF-8"?><x/>`)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// upload posts content as the multipart field "file" (query is "" or "?kind=avatar").
func upload(c *apptest.Client, query, filename string, content []byte) *apptest.Resp {
	return c.PutFile(query, filename, content)
}

func put(t *testing.T, c *apptest.Client, query, filename string, content []byte) files.PutResult {
	t.Helper()
	var res files.PutResult
	upload(c, query, filename, content).OK(t, &res)
	return res
}

type fetched struct {
	Status int
	Header http.Header
	Body   []byte
}

// fetch gets a link the way <img src> does: no token, no client header.
func fetch(t *testing.T, h *apptest.H, link string, headers ...string) fetched {
	t.Helper()
	req, err := http.NewRequest("GET", h.Server.URL+link, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return fetched{res.StatusCode, res.Header, b}
}

// clerk creates a user with a plain (non-admin) role in the tenant of admin and signs in.
func clerk(t *testing.T, h *apptest.H, tenantID string, admin *apptest.Client, account string) (*apptest.Client, string) {
	t.Helper()
	var role, u struct {
		ID string `json:"id"`
	}
	admin.PostJSON("/api/blade-system/role/submit", map[string]any{"roleName": "Clerk " + account, "roleAlias": "clerk_" + account, "sort": 2, "parentId": "0"}).OK(t, &role)
	admin.PostJSON("/api/blade-user/submit", map[string]any{"account": account, "name": account, "realName": account,
		"password": "s3cret", "roleId": role.ID, "deptId": admin.Login["dept_id"], "phone": "13800000000"}).OK(t, &u)
	return h.Login(tenantID, account, "s3cret"), u.ID
}

func attachRow(t *testing.T, h *apptest.H, id string) files.Attach {
	t.Helper()
	var a files.Attach
	if err := h.App.DB.NewSelect().Model(&a).Where("id = ?", id).Scan(context.Background()); err != nil {
		t.Fatalf("attach %s: %v", id, err)
	}
	return a
}

func TestAvatarUploadAndFetch(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		tenantID, ta := h.NewTenant("Files Co")
		c, userID := clerk(t, h, tenantID, ta, "clara")
		img := pngOf(t, 32, 24, false)

		res := put(t, c, "?kind=avatar", "my photo.png", img)
		now := time.Now().UTC()
		prefix := tenantID + "/" + now.Format("2006/01") + "/"
		if !strings.HasPrefix(res.Name, prefix) || !strings.HasSuffix(res.Name, ".png") || len(res.Name) != len(prefix)+32+len(".png") {
			t.Errorf("name %q, want %s<32 hex>.png", res.Name, prefix)
		}
		if strings.Contains(res.Name, "photo") || strings.Contains(res.Name, " ") {
			t.Errorf("stored name %q carries the client's name", res.Name)
		}
		if res.OriginalName != "my photo.png" || res.Domain != "/api/blade-resource/oss/endpoint/file" || res.AttachID == 0 {
			t.Errorf("answer %+v", res)
		}
		if !strings.HasPrefix(res.Link, res.Domain+"/"+res.Name+"?") {
			t.Errorf("link %q is not domain/name?signature", res.Link)
		}
		u, _ := url.Parse(res.Link)
		if q := u.Query(); q.Get("sig") == "" || q.Get("expires") == "" {
			t.Errorf("link %q not signed", res.Link)
		}

		// The record: the uploader's tenant and user, the generated name, the client's name apart.
		a := attachRow(t, h, res.AttachID.String())
		if a.TenantID != tenantID || a.CreateUser.String() != userID || a.Name != res.Name || a.OriginalName != "my photo.png" ||
			a.Extension != "png" || a.AttachSize != int64(len(img)) || a.Link != res.Link || a.DomainURL != res.Domain || a.IsDeleted != 0 {
			t.Errorf("attach row %+v", a)
		}
		// On disk under the generated name only.
		root := h.App.Config.FilesRoot()
		if b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(res.Name))); err != nil || !bytes.Equal(b, img) {
			t.Errorf("stored file: %v", err)
		}
		filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && strings.Contains(d.Name(), "photo") {
				t.Errorf("client name on disk: %s", p)
			}
			return nil
		})

		// Fetched as <img src> would: no token.
		f := fetch(t, h, res.Link)
		if f.Status != 200 || !bytes.Equal(f.Body, img) {
			t.Fatalf("fetch: %d, %d bytes", f.Status, len(f.Body))
		}
		if f.Header.Get("Content-Type") != "image/png" || f.Header.Get("X-Content-Type-Options") != "nosniff" ||
			!strings.HasPrefix(f.Header.Get("Content-Disposition"), "inline") {
			t.Errorf("headers %v", f.Header)
		}
		// Range requests work (the local store seeks).
		if f := fetch(t, h, res.Link, "Range", "bytes=0-7"); f.Status != 206 || !bytes.Equal(f.Body, img[:8]) {
			t.Errorf("range: %d %q", f.Status, f.Body)
		}

		// The avatar field stores the link; reads hand out a freshly signed
		// link to the same file, so it keeps working past the link lifetime.
		c.PostJSON("/api/blade-user/update-info", map[string]any{"avatar": res.Link}).OK(t, nil)
		var info map[string]any
		c.Get("/api/blade-user/info", nil).OK(t, &info)
		key, _, _ := strings.Cut(res.Link, "?")
		if got := info["avatar"].(string); !strings.HasPrefix(got, key+"?") {
			t.Errorf("avatar %v, want a link to %s", got, key)
		}
		if f := fetch(t, h, info["avatar"].(string)); f.Status != 200 {
			t.Errorf("avatar link: %d", f.Status)
		}
		later := time.Now().Add(files.LinkTTL + 48*time.Hour)
		h.App.Files.Now = func() time.Time { return later }
		if f := fetch(t, h, res.Link); f.Status != 403 {
			t.Errorf("the original link after its lifetime: %d", f.Status)
		}
		c.Get("/api/blade-user/info", nil).OK(t, &info)
		if f := fetch(t, h, info["avatar"].(string)); f.Status != 200 {
			t.Errorf("the re-signed avatar after the original's lifetime: %d", f.Status)
		}
		h.App.Files.Now = nil

		// JPEG is the other avatar type.
		if res := put(t, c, "?kind=avatar", "me.JPG", jpegOf(t)); !strings.HasSuffix(res.Name, ".jpg") {
			t.Errorf("jpeg name %q", res.Name)
		}
	})
}

func TestLinkSignature(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		tenantID, ta := h.NewTenant("Links Co")
		c, _ := clerk(t, h, tenantID, ta, "lena")
		one := put(t, c, "", "one.png", pngOf(t, 4, 4, false))
		two := put(t, c, "", "two.png", pngOf(t, 5, 5, false))
		if fetch(t, h, one.Link).Status != 200 {
			t.Fatal("a fresh link must work")
		}
		u, _ := url.Parse(one.Link)
		q := u.Query()
		sig, expires := q.Get("sig"), q.Get("expires")
		flip := func(s string) string {
			b := []byte(s)
			if b[0] == 'A' {
				b[0] = 'B'
			} else {
				b[0] = 'A'
			}
			return string(b)
		}
		link := func(key, expires, sig string) string {
			v := url.Values{}
			if expires != "" {
				v.Set("expires", expires)
			}
			if sig != "" {
				v.Set("sig", sig)
			}
			return files.FilePrefix + key + "?" + v.Encode()
		}
		refused := map[string]string{
			"tampered signature":        link(one.Name, expires, flip(sig)),
			"extended expiry":           link(one.Name, expires+"0", sig),
			"no signature":              link(one.Name, expires, ""),
			"no expiry":                 link(one.Name, "", sig),
			"other key, same signature": link(two.Name, expires, sig),
			"traversal":                 files.FilePrefix + "../../../etc/passwd?" + q.Encode(),
			"expired":                   h.App.Files.Link(one.Name, time.Now().Add(-time.Minute)),
		}
		for name, l := range refused {
			f := fetch(t, h, l)
			if f.Status != 403 || bytes.Contains(f.Body, []byte("PNG")) {
				t.Errorf("%s (%s): %d", name, l, f.Status)
			}
		}
		if f := fetch(t, h, refused["expired"], "Accept-Language", "en"); !bytes.Contains(f.Body, []byte("invalid or has expired")) {
			t.Errorf("expired message: %s", f.Body)
		}
		// Links expire after LinkTTL.
		h.App.Files.Now = func() time.Time { return time.Now().Add(files.LinkTTL + time.Minute) }
		if f := fetch(t, h, one.Link); f.Status != 403 {
			t.Errorf("link older than LinkTTL: %d", f.Status)
		}
		h.App.Files.Now = nil
		// A validly signed key with no upload behind it, and a removed upload, are 404.
		if f := fetch(t, h, h.App.Files.Link(tenantID+"/2020/01/nothing.png", time.Now().Add(time.Hour))); f.Status != 404 {
			t.Errorf("signed unknown key: %d", f.Status)
		}
		if _, err := h.App.DB.NewUpdate().Table("blade_attach").Set("is_deleted = 1").Where("name = ?", two.Name).Exec(context.Background()); err != nil {
			t.Fatal(err)
		}
		if f := fetch(t, h, two.Link); f.Status != 404 {
			t.Errorf("link of a removed upload: %d", f.Status)
		}
	})
}

func TestUploadRules(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		tenantID, ta := h.NewTenant("Rules Co")
		c, _ := clerk(t, h, tenantID, ta, "rudi")

		// No token: 401 before anything is read.
		upload(h.Anon(), "?kind=avatar", "a.png", pngOf(t, 2, 2, false)).Fail(t, 401)

		// Avatar: the type comes from the content, whatever the name says.
		text := []byte("just some text, not a picture\n")
		for _, lang := range []string{"", "en"} {
			c.Lang = lang
			want := map[string][2]string{"": {avatarTypeZh, avatarSizeZh}, "en": {avatarTypeEn, avatarSizeEn}}[lang]
			if msg := upload(c, "?kind=avatar", "avatar.png", text).Fail(t, 400); msg != want[0] {
				t.Errorf("text as avatar [%s]: %q", lang, msg)
			}
			if msg := upload(c, "?kind=avatar", "anim.png", gifOf(t)).Fail(t, 400); msg != want[0] {
				t.Errorf("gif as avatar [%s]: %q", lang, msg)
			}
		}
		c.Lang = ""
		big := pngOf(t, 400, 400, true)
		if len(big) < 600<<10 {
			t.Fatalf("noisy png is only %d bytes", len(big))
		}
		if msg := upload(c, "?kind=avatar", "big.png", big).Fail(t, 400); msg != avatarSizeZh {
			t.Errorf("600 KB avatar: %q", msg)
		}
		c.Lang = "en"
		if msg := upload(c, "?kind=avatar", "big.png", big).Fail(t, 400); msg != avatarSizeEn {
			t.Errorf("600 KB avatar [en]: %q", msg)
		}
		c.Lang = ""
		exact := append(pngOf(t, 2, 2, false), make([]byte, files.AvatarMaxSize)...)[:files.AvatarMaxSize]
		put(t, c, "?kind=avatar", "exact.png", exact) // 500 KB exactly is allowed
		// The same big picture is fine as a general upload (10 MB limit).
		put(t, c, "", "big.png", big)

		// General uploads: images, PDF, Office files, text; nothing else.
		accepted := []struct {
			name    string
			content []byte
			ext, ct string
		}{
			{"photo.jpeg", jpegOf(t), "jpg", "image/jpeg"},
			{"anim.gif", gifOf(t), "gif", "image/gif"},
			{"pic.webp", append([]byte("RIFF\x10\x00\x00\x00WEBPVP8 "), make([]byte, 16)...), "webp", "image/webp"},
			{"报价单.pdf", []byte("%PDF-1.4\n%âãÏÓ\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"), "pdf", "application/pdf"},
			{"plan.xlsx", zipOf(t, "[Content_Types].xml", "xl/workbook.xml"), "xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"},
			{"memo.docx", zipOf(t, "[Content_Types].xml", "word/document.xml"), "docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"},
			{"data.csv", []byte("code,name\nA1,螺丝\n"), "csv", "text/plain; charset=utf-8"},
			{"notes", []byte("plain notes\n"), "txt", "text/plain; charset=utf-8"},
		}
		for _, a := range accepted {
			res := put(t, c, "", a.name, a.content)
			if !strings.HasSuffix(res.Name, "."+a.ext) || res.OriginalName != a.name {
				t.Errorf("%s: %+v", a.name, res)
			}
			f := fetch(t, h, res.Link)
			if f.Status != 200 || !bytes.Equal(f.Body, a.content) || f.Header.Get("Content-Type") != a.ct || f.Header.Get("X-Content-Type-Options") != "nosniff" {
				t.Errorf("%s: fetch %d %v", a.name, f.Status, f.Header)
			}
			disp, params, err := mime.ParseMediaType(f.Header.Get("Content-Disposition"))
			wantDisp := "attachment"
			if strings.HasPrefix(a.ct, "image/") {
				wantDisp = "inline"
			}
			if err != nil || disp != wantDisp || params["filename"] != a.name {
				t.Errorf("%s: Content-Disposition %q (%v)", a.name, f.Header.Get("Content-Disposition"), err)
			}
		}
		refused := []struct {
			name    string
			content []byte
		}{
			{"page.txt", []byte("<!DOCTYPE html><html><script>alert(1)</script></html>")},
			{"logo.svg", []byte(`<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>`)},
			{"tool.exe", append([]byte("MZ\x90\x00\x03\x00\x00\x00"), make([]byte, 64)...)},
			{"archive.zip", zipOf(t, "a.txt")},
			{"fake.docx", zipOf(t, "word/document.xml")}, // no [Content_Types].xml
			{"blob.bin", []byte{0, 1, 2, 3, 4, 5, 0xff, 0xfe}},
		}
		for _, r := range refused {
			if msg := upload(c, "", r.name, r.content).Fail(t, 400); !strings.Contains(msg, "不支持的文件类型") {
				t.Errorf("%s: %q", r.name, msg)
			}
		}
		over := bytes.Repeat([]byte("x"), files.MaxFileSize+1)
		if msg := upload(c, "", "huge.txt", over).Fail(t, 400); msg != "上传文件大小不能超过 10MB!" {
			t.Errorf("10 MB + 1: %q", msg)
		}
		put(t, c, "", "max.txt", over[:files.MaxFileSize])
		upload(c, "", "huger.txt", bytes.Repeat([]byte("x"), files.MaxRequestBody+1)).Fail(t, 413)

		// No file: wrong field, empty file, not multipart, unknown kind.
		var buf bytes.Buffer
		mw := multipart.NewWriter(&buf)
		fw, _ := mw.CreateFormFile("upload", "a.png")
		fw.Write(pngOf(t, 2, 2, false))
		mw.Close()
		if msg := c.Do("POST", files.PutFilePath, &buf, map[string]string{"Content-Type": mw.FormDataContentType()}).Fail(t, 400); msg != "请选择要上传的文件" {
			t.Errorf("wrong field: %q", msg)
		}
		upload(c, "", "empty.png", nil).Fail(t, 400)
		c.PostJSON(files.PutFilePath, map[string]any{"file": "x"}).Fail(t, 400)
		upload(c, "?kind=banner", "a.png", pngOf(t, 2, 2, false)).Fail(t, 400)
	})
}

// Videos (kind=video): MP4 and WebM told from the content, up to the
// service's VideoMax, stored and registered like any upload, and served
// inline with range requests so a <video> can seek; other kinds refuse
// them, and they refuse anything else.
func TestVideoUploads(t *testing.T) {
	mp4 := append([]byte("\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00mp42isom"), bytes.Repeat([]byte{7}, 1000)...)
	webm := append([]byte("\x1a\x45\xdf\xa3\x9f\x42\x86\x81\x01\x42\xf7\x81\x01\x42\xf2\x81\x04\x42\xf3\x81\x08\x42\x82\x84webm"), make([]byte, 100)...)
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		tenantID, ta := h.NewTenant("Video Co")
		c, _ := clerk(t, h, tenantID, ta, "vera")
		upload(h.Anon(), "?kind=video", "a.mp4", mp4).Fail(t, 401)

		res := put(t, c, "?kind=video", "入职培训.mp4", mp4)
		if !strings.HasPrefix(res.Name, tenantID+"/") || !strings.HasSuffix(res.Name, ".mp4") || res.OriginalName != "入职培训.mp4" {
			t.Errorf("mp4 stored as %+v", res)
		}
		if a := attachRow(t, h, res.AttachID.String()); a.AttachSize != int64(len(mp4)) || a.ContentType != "video/mp4" || a.Extension != "mp4" {
			t.Errorf("mp4 registered as %+v", a)
		}
		f := fetch(t, h, res.Link)
		if f.Status != 200 || !bytes.Equal(f.Body, mp4) || f.Header.Get("Content-Type") != "video/mp4" || !strings.HasPrefix(f.Header.Get("Content-Disposition"), "inline") {
			t.Errorf("mp4 fetched: %d %v", f.Status, f.Header)
		}
		part := fetch(t, h, res.Link, "Range", "bytes=100-199")
		if part.Status != 206 || !bytes.Equal(part.Body, mp4[100:200]) || part.Header.Get("Content-Range") != fmt.Sprintf("bytes 100-199/%d", len(mp4)) {
			t.Errorf("range: %d %q %d bytes", part.Status, part.Header.Get("Content-Range"), len(part.Body))
		}
		if w := put(t, c, "?kind=video", "clip.webm", webm); !strings.HasSuffix(w.Name, ".webm") {
			t.Errorf("webm stored as %s", w.Name)
		}

		// anything but MP4 or WebM, and videos elsewhere
		for name, content := range map[string][]byte{"pic.mp4": pngOf(t, 2, 2, false), "notes.mp4": []byte("plain text\n"), "page.webm": []byte("<html><script>alert(1)</script>")} {
			if msg := upload(c, "?kind=video", name, content).Fail(t, 400); msg != "视频只能是 MP4 或 WebM 格式!" {
				t.Errorf("%s as a video: %q", name, msg)
			}
		}
		if msg := upload(c, "", "a.mp4", mp4).Fail(t, 400); !strings.Contains(msg, "不支持的文件类型") {
			t.Errorf("mp4 as a plain upload: %q", msg)
		}
		upload(c, "?kind=avatar", "a.mp4", mp4).Fail(t, 400)
		upload(c, "?kind=video", "empty.mp4", nil).Fail(t, 400)

		// the limit: the service's, in its message; past the framing room, 413 before reading
		h.App.Files.VideoMax = 1 << 20
		big := append(append([]byte{}, mp4...), make([]byte, 1<<20)...)
		c.Lang = "en"
		if msg := upload(c, "?kind=video", "big.mp4", big).Fail(t, 400); msg != "Videos cannot be larger than 1MB!" {
			t.Errorf("1 MB + %d bytes: %q", len(mp4), msg)
		}
		c.Lang = ""
		put(t, c, "?kind=video", "max.mp4", big[:1<<20])
		upload(c, "?kind=video", "huge.mp4", append(big, make([]byte, 1<<20)...)).Fail(t, 413)
	})
}

// Tenants: uploads land under the uploader's tenant and are recorded there.
// Links are capabilities: whoever holds a signed link can fetch the file
// until it expires, whatever their tenant; without the link (a guessed or
// re-signed URL) nobody can.
func TestTenants(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		tenantA, adminA := h.NewTenant("Tenant A")
		tenantB, adminB := h.NewTenant("Tenant B")
		a := put(t, adminA, "", "a.pdf", []byte("%PDF-1.4\nA\n%%EOF\n"))
		b := put(t, adminB, "", "b.pdf", []byte("%PDF-1.4\nB\n%%EOF\n"))
		s := put(t, h.Admin(), "", "s.pdf", []byte("%PDF-1.4\nS\n%%EOF\n"))
		if !strings.HasPrefix(a.Name, tenantA+"/") || !strings.HasPrefix(b.Name, tenantB+"/") || !strings.HasPrefix(s.Name, "000000/") {
			t.Errorf("keys %s %s %s", a.Name, b.Name, s.Name)
		}
		if r := attachRow(t, h, a.AttachID.String()); r.TenantID != tenantA {
			t.Errorf("A's row in tenant %s", r.TenantID)
		}
		if r := attachRow(t, h, b.AttachID.String()); r.TenantID != tenantB {
			t.Errorf("B's row in tenant %s", r.TenantID)
		}
		// B knows A's key but holds no link to it: guessed, unsigned or B-signed URLs fail, with or without B's token.
		bu, _ := url.Parse(b.Link)
		for _, l := range []string{files.FilePrefix + a.Name, files.FilePrefix + a.Name + "?" + bu.RawQuery} {
			if f := fetch(t, h, l); f.Status != 403 {
				t.Errorf("%s: %d", l, f.Status)
			}
			if r := adminB.Get(l, nil); r.Status != 403 {
				t.Errorf("%s with B's token: %d", l, r.Status)
			}
		}
		// Whoever holds A's link can fetch it until it expires: the link is the capability.
		if r := adminB.Do("GET", a.Link, nil, nil); r.Status != 200 || !bytes.Contains(r.Body, []byte("\nA\n")) {
			t.Errorf("A's link presented by B: %d", r.Status)
		}
	})
}

// TestFileLinksStayInTenant: a field that holds a file link accepts only a
// live upload of the row's own tenant, and reads sign only such files. The
// probe set tenant B's avatar to tenant A's bare file path and got back a
// freshly signed link that served A's file.
func TestFileLinksStayInTenant(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		tenantA, adminA := h.NewTenant("Owner A")
		tenantB, adminB := h.NewTenant("Thief B")
		a := put(t, adminA, "?kind=avatar", "a.png", pngOf(t, 4, 4, false))
		b := put(t, adminB, "?kind=avatar", "b.png", pngOf(t, 4, 4, false))
		if !strings.HasPrefix(a.Name, tenantA+"/") {
			t.Fatalf("A's upload %q is not keyed under tenant %s: the refusals below would not be about another tenant's file", a.Name, tenantA)
		}
		bob, bobID := clerk(t, h, tenantB, adminB, "bob")
		for _, link := range []string{
			files.FilePrefix + a.Name, // A's key, bare
			a.Link,                    // A's signed link
			files.FilePrefix + tenantB + "/2030/01/0123456789abcdef0123456789abcdef.png", // B's prefix, no such upload
			"/api/blade-resource/oss/endpoint/file/../" + a.Name,
		} {
			bob.PostJSON("/api/blade-user/update-info", map[string]any{"avatar": link}).Fail(t, 400)
			adminB.Edit("/api/blade-user/submit", map[string]any{"id": bobID, "avatar": link}).Fail(t, 400)
		}
		// A removed upload is no longer a file one may point at.
		gone := put(t, adminB, "?kind=avatar", "gone.png", pngOf(t, 4, 4, false))
		if _, err := h.App.DB.NewUpdate().Model((*files.Attach)(nil)).Set("is_deleted = 1").Where("id = ?", gone.AttachID).Exec(context.Background()); err != nil {
			t.Fatal(err)
		}
		bob.PostJSON("/api/blade-user/update-info", map[string]any{"avatar": gone.Link}).Fail(t, 400)
		// B's own upload works, and reads hand back a working link.
		bob.PostJSON("/api/blade-user/update-info", map[string]any{"avatar": b.Link}).OK(t, nil)
		var info map[string]any
		bob.Get("/api/blade-user/info", nil).OK(t, &info)
		if f := fetch(t, h, info["avatar"].(string)); f.Status != 200 {
			t.Fatalf("own avatar link %v: %d", info["avatar"], f.Status)
		}
		// A foreign key already stored (by an older version, or by hand) is never signed.
		if _, err := h.App.DB.NewUpdate().Table("blade_user").Set("avatar = ?", files.FilePrefix+a.Name).Where("id = ?", bobID).Exec(context.Background()); err != nil {
			t.Fatal(err)
		}
		for _, r := range []*apptest.Resp{bob.Get("/api/blade-user/info", nil), adminB.Get("/api/blade-user/detail", url.Values{"id": {bobID}})} {
			var row map[string]any
			r.OK(t, &row)
			if av, _ := row["avatar"].(string); av != "" {
				if f := fetch(t, h, av); f.Status == 200 {
					t.Fatalf("tenant B's row serves tenant A's file through %s", av)
				}
				t.Fatalf("a foreign file key came back as %q", av)
			}
		}
		var login map[string]any
		if r := bob.Token_(tenantB, "bob", "s3cret"); r.Status == 200 {
			_ = json.Unmarshal(r.Body, &login)
		}
		if av, _ := login["avatar"].(string); av != "" {
			t.Fatalf("the login answer signs a foreign file: %q", av)
		}
	})
}

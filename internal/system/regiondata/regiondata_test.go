package regiondata

import (
	"strings"
	"testing"
)

func TestAllCountsPerLevel(t *testing.T) {
	regions, err := All()
	if err != nil {
		t.Fatal(err)
	}
	counts := map[int]int{}
	for _, r := range regions {
		counts[r.Level]++
	}
	t.Logf("%d regions; per level: %v; embedded %d bytes", len(regions), counts, len(compressed))
	plausible := []struct {
		level, min, max int
	}{
		{1, 31, 35},       // 31 mainland provinces; HK/MO/TW are not in the source data
		{2, 330, 360},     // ~340 prefecture-level cities
		{3, 2800, 3200},   // ~3000 county-level districts
		{4, 38000, 45000}, // ~40000 township-level streets
	}
	for _, p := range plausible {
		if c := counts[p.level]; c < p.min || c > p.max {
			t.Errorf("level %d: %d regions, want %d..%d", p.level, c, p.min, p.max)
		}
	}
	if len(counts) != len(plausible) {
		t.Errorf("levels present: %v, want exactly 1..4", counts)
	}
}

func TestAllStructure(t *testing.T) {
	regions, err := All()
	if err != nil {
		t.Fatal(err)
	}
	codeLen := map[int]int{1: 2, 2: 4, 3: 6, 4: 9}
	byCode := make(map[string]Region, len(regions))
	for i, r := range regions {
		if _, dup := byCode[r.Code]; dup {
			t.Errorf("duplicate code %s", r.Code)
		}
		byCode[r.Code] = r
		if len(r.Code) != codeLen[r.Level] || strings.Trim(r.Code, "0123456789") != "" {
			t.Errorf("%+v: code does not fit level", r)
		}
		if r.Name == "" || strings.TrimSpace(r.Name) != r.Name || strings.ContainsAny(r.Name, "\r\n") {
			t.Errorf("%+v: bad name", r)
		}
		if i > 0 {
			prev := regions[i-1]
			if r.Level < prev.Level || r.Level == prev.Level && r.Code <= prev.Code {
				t.Errorf("order: %+v after %+v; want by level, then code", r, prev)
			}
		}
	}
	for _, r := range regions {
		if r.Level == 1 {
			if r.ParentCode != "00" {
				t.Errorf("%+v: province parent must be 00", r)
			}
			continue
		}
		p, ok := byCode[r.ParentCode]
		switch {
		case !ok:
			t.Errorf("%+v: parent does not exist", r)
		case p.Level != r.Level-1:
			t.Errorf("%+v: parent %+v is not one level up", r, p)
		case !strings.HasPrefix(r.Code, r.ParentCode):
			t.Errorf("%+v: code does not start with parent code", r)
		}
	}
	// Every province, city and district has children.
	hasChild := map[string]bool{}
	for _, r := range regions {
		hasChild[r.ParentCode] = true
	}
	for _, r := range regions {
		if r.Level < 4 && !hasChild[r.Code] {
			t.Errorf("%+v has no children", r)
		}
	}
}

func TestAllKnownRows(t *testing.T) {
	regions, err := All()
	if err != nil {
		t.Fatal(err)
	}
	byCode := make(map[string]Region, len(regions))
	for _, r := range regions {
		byCode[r.Code] = r
	}
	for _, want := range []Region{
		{"11", "00", "北京市", 1},
		{"65", "00", "新疆维吾尔自治区", 1},
		{"1101", "11", "市辖区", 2}, // municipalities have a placeholder city level
		{"5002", "50", "县", 2},
		{"4690", "46", "省直辖县级行政区划", 2},
		{"110101", "1101", "东城区", 3},
		{"310115", "3101", "浦东新区", 3},
		{"441900", "4419", "东莞市", 3}, // city without districts: placeholder district
		{"110101001", "110101", "东华门街道", 4},
		{"441900003", "441900", "东城街道", 4},
	} {
		if got, ok := byCode[want.Code]; !ok || got != want {
			t.Errorf("region %s = %+v (found %v), want %+v", want.Code, got, ok, want)
		}
	}
}

func TestAllReturnsFreshSlice(t *testing.T) {
	a, err := All()
	if err != nil {
		t.Fatal(err)
	}
	a[0].Name = "changed"
	b, err := All()
	if err != nil {
		t.Fatal(err)
	}
	if b[0].Name == "changed" {
		t.Fatal("All shares its result between calls")
	}
}

func TestEmbeddedSize(t *testing.T) {
	if len(compressed) > 1<<20 {
		t.Errorf("regions.txt.gz is %d bytes; keep it well under 2 MB", len(compressed))
	}
}

func TestDecodeRejectsMalformedData(t *testing.T) {
	const ok = "regiondata/v1 test\n00 11 12\n11 01\n1101 01\n\nA\nB\nC\nD\n"
	got, err := decode(ok)
	if err != nil {
		t.Fatalf("valid input: %v", err)
	}
	want := []Region{
		{"11", "00", "A", 1}, {"12", "00", "B", 1},
		{"1101", "11", "C", 2}, {"110101", "1101", "D", 3},
	}
	if len(got) != len(want) {
		t.Fatalf("decode = %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("decode[%d] = %+v, want %+v", i, got[i], want[i])
		}
	}
	for name, in := range map[string]string{
		"no header":       "00 11\n\nA\n",
		"no names":        "regiondata/v1 test\n00 11\n",
		"unknown parent":  "regiondata/v1 test\n00 11\n13 01\n\nA\nB\n",
		"parent order":    "regiondata/v1 test\n00 11 12\n12 01\n11 01\n\nA\nB\nC\nD\n",
		"bad code length": "regiondata/v1 test\n00 11\n11 1\n\nA\nB\n",
		"too few names":   "regiondata/v1 test\n00 11 12\n\nA\n",
		"too many names":  "regiondata/v1 test\n00 11\n\nA\nB\n",
		"empty name":      "regiondata/v1 test\n00 11 12\n\nA\n\n",
		"double space":    "regiondata/v1 test\n00 11  12\n\nA\nB\nC\n",
	} {
		if _, err := decode(in); err == nil {
			t.Errorf("%s: decode accepted %q", name, in)
		}
	}
}

func BenchmarkAll(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := All(); err != nil {
			b.Fatal(err)
		}
	}
}

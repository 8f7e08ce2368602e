package system_test

import (
	"testing"

	"github.com/bluebird/console/internal/apptest"
)

// regionRow is a region as the API answers it.
type regionRow struct {
	Code        string       `json:"code"`
	ParentCode  string       `json:"parentCode"`
	Ancestors   string       `json:"ancestors"`
	Name        string       `json:"name"`
	RegionLevel int          `json:"regionLevel"`
	Sort        int          `json:"sort"`
	HasChildren bool         `json:"hasChildren"`
	ID          string       `json:"id"`
	Title       string       `json:"title"`
	Value       string       `json:"value"`
	Key         string       `json:"key"`
	ParentName  string       `json:"parentName"`
	Children    []*regionRow `json:"children"`
}

func findRegion(rows []*regionRow, code string) *regionRow {
	for _, r := range rows {
		if r.Code == code {
			return r
		}
	}
	return nil
}

const regionAPI = "/api/blade-system/region/"

func TestRegionReads(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		_, tenantAdmin := h.NewTenant("Region Reader")
		// any signed-in user reads regions
		var provinces []*regionRow
		tenantAdmin.Get(regionAPI+"lazy-tree", apptest.Q("parentCode", "00")).OK(t, &provinces)
		if len(provinces) != 31 {
			t.Fatalf("provinces: %d, want 31", len(provinces))
		}
		bj := findRegion(provinces, "11")
		if bj == nil || bj.Name != "北京市" || !bj.HasChildren || bj.RegionLevel != 1 || bj.ParentCode != "00" || bj.Ancestors != "00" {
			t.Fatalf("北京市: %+v", bj)
		}
		if bj.ID != "11" || bj.Value != "11" || bj.Key != "11" || bj.Title != "北京市" {
			t.Errorf("tree-widget keys of 北京市: %+v", bj)
		}
		// no parentCode means the provinces too
		var again []*regionRow
		tenantAdmin.Get(regionAPI+"lazy-tree", nil).OK(t, &again)
		if len(again) != 31 {
			t.Errorf("lazy-tree without parentCode: %d", len(again))
		}

		var districts []*regionRow
		tenantAdmin.Get(regionAPI+"lazy-tree", apptest.Q("parentCode", "1101")).OK(t, &districts)
		dc := findRegion(districts, "110101")
		if dc == nil || dc.Name != "东城区" || !dc.HasChildren || dc.RegionLevel != 3 || dc.Ancestors != "00,11,1101" {
			t.Fatalf("东城区: %+v", dc)
		}
		var streets []*regionRow
		tenantAdmin.Get(regionAPI+"lazy-tree", apptest.Q("parentCode", "110101")).OK(t, &streets)
		if len(streets) == 0 || streets[0].HasChildren || streets[0].RegionLevel != 4 {
			t.Fatalf("streets of 东城区: %d %+v", len(streets), streets)
		}
		var none []*regionRow
		tenantAdmin.Get(regionAPI+"lazy-tree", apptest.Q("parentCode", "zz'")).OK(t, &none)
		if len(none) != 0 {
			t.Errorf("lazy-tree of an unknown code: %d rows", len(none))
		}

		var d regionRow
		tenantAdmin.Get(regionAPI+"detail", apptest.Q("code", "110101")).OK(t, &d)
		if d.Name != "东城区" || d.ParentName != "市辖区" || d.ParentCode != "1101" || !d.HasChildren {
			t.Errorf("detail 110101: %+v", d)
		}
		tenantAdmin.Get(regionAPI+"detail", apptest.Q("code", "999999")).Fail(t, 404)
		tenantAdmin.Get(regionAPI+"detail", nil).Fail(t, 400)

		// list: paged, filtered
		var page apptest.Page[regionRow]
		tenantAdmin.Get(regionAPI+"list", apptest.Q("parentCode", "1101", "size", "5")).OK(t, &page)
		if page.Total != 16 || len(page.Records) != 5 || page.Pages != 4 || page.Records[0].Code != "110101" {
			t.Errorf("list parentCode=1101: total %d, %d records, first %+v", page.Total, len(page.Records), page.Records[0])
		}
		tenantAdmin.Get(regionAPI+"list", apptest.Q("name", "东城", "regionLevel", "3")).OK(t, &page)
		if findRegion(ptrs(page.Records), "110101") == nil {
			t.Errorf("list name=东城 regionLevel=3 lacks 110101: %+v", page.Records)
		}
		for _, r := range page.Records {
			if r.RegionLevel != 3 {
				t.Errorf("regionLevel filter let through %+v", r)
			}
		}
		tenantAdmin.Get(regionAPI+"list", apptest.Q("code_equal", "11")).OK(t, &page)
		if page.Total != 1 {
			t.Errorf("code_equal=11: %d", page.Total)
		}
		tenantAdmin.Get(regionAPI+"list", apptest.Q("descs", "password")).Fail(t, 400)
		tenantAdmin.Get(regionAPI+"list", apptest.Q("regionLevel", "x")).Fail(t, 400)
		tenantAdmin.Get(regionAPI+"list", apptest.Q("current", "0")).Fail(t, 400)

		// tree: provinces and cities by default, districts at level 3, no deeper
		var tree []*regionRow
		tenantAdmin.Get(regionAPI+"tree", apptest.Q("tenantId", "000000")).OK(t, &tree)
		if len(tree) != 31 {
			t.Fatalf("tree roots: %d", len(tree))
		}
		bj = findRegion(tree, "11")
		if bj == nil || findRegion(bj.Children, "1101") == nil || findRegion(bj.Children, "1101").Children != nil {
			t.Fatalf("level-2 tree of 北京市: %+v", bj)
		}
		if !findRegion(bj.Children, "1101").HasChildren {
			t.Errorf("a city at the tree's last level must still say it has children")
		}
		tenantAdmin.Get(regionAPI+"tree", apptest.Q("level", "3")).OK(t, &tree)
		if c := findRegion(findRegion(tree, "11").Children, "1101"); c == nil || findRegion(c.Children, "110101") == nil {
			t.Fatalf("level-3 tree lacks 东城区")
		}
		if msg := tenantAdmin.Get(regionAPI+"tree", apptest.Q("level", "4")).Fail(t, 400); msg == "" {
			t.Errorf("level 4 needs a readable message")
		}
		tenantAdmin.Get(regionAPI+"tree", apptest.Q("level", "x")).Fail(t, 400)
	})
}

func ptrs[T any](rows []T) []*T {
	out := make([]*T, len(rows))
	for i := range rows {
		out[i] = &rows[i]
	}
	return out
}

func TestRegionWrites(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		admin := h.Admin()
		_, tenantAdmin := h.NewTenant("Region Writer")

		// a new street under 东城区, read back with ancestors and level from the parent
		var saved regionRow
		admin.PostJSON(regionAPI+"submit", map[string]any{"parentCode": "110101", "code": "110101999", "name": "测试街道", "sort": 99}).OK(t, &saved)
		if saved.Ancestors != "00,11,1101,110101" || saved.RegionLevel != 4 || saved.ParentCode != "110101" || saved.Sort != 99 {
			t.Fatalf("saved street: %+v", saved)
		}
		var got regionRow
		admin.Get(regionAPI+"detail", apptest.Q("code", "110101999")).OK(t, &got)
		if got.Name != "测试街道" || got.Ancestors != "00,11,1101,110101" || got.RegionLevel != 4 || got.HasChildren || got.ParentName != "东城区" {
			t.Fatalf("detail of the new street: %+v", got)
		}
		var streets []*regionRow
		admin.Get(regionAPI+"lazy-tree", apptest.Q("parentCode", "110101")).OK(t, &streets)
		if findRegion(streets, "110101999") == nil {
			t.Fatalf("the new street is not a child of 东城区")
		}
		// the BladeX form's parentCode + subCode; sort defaults to the next in the parent
		admin.PostJSON(regionAPI+"submit", map[string]any{"parentCode": "110101", "subCode": "998", "name": "子编号街道"}).OK(t, &saved)
		if saved.Code != "110101998" || saved.RegionLevel != 4 || saved.Sort != 100 {
			t.Errorf("subCode submit: %+v", saved)
		}
		// a village under the new street is level 5; nothing goes below level 5
		admin.PostJSON(regionAPI+"submit", map[string]any{"parentCode": "110101999", "code": "110101999001", "name": "测试村"}).OK(t, &saved)
		if saved.RegionLevel != 5 || saved.Ancestors != "00,11,1101,110101,110101999" {
			t.Errorf("village: %+v", saved)
		}

		// update by code: name and sort change, the place in the tree does not
		admin.PostJSON(regionAPI+"submit", map[string]any{"code": "110101999", "name": "改名街道"}).OK(t, &saved)
		if saved.Name != "改名街道" || saved.Ancestors != "00,11,1101,110101" || saved.Sort != 99 {
			t.Errorf("update: %+v", saved)
		}
		admin.PostJSON(regionAPI+"submit", map[string]any{"code": "110101999", "parentCode": "1102", "name": "x"}).Fail(t, 400)

		// validation, in both languages
		cases := []struct {
			body map[string]any
			zh   string
		}{
			{map[string]any{}, "请输入区划编号"},
			{map[string]any{"code": "", "name": "x"}, "请输入区划编号"},
			{map[string]any{"parentCode": "110101", "code": "110101997"}, "请输入区划名称"},
			{map[string]any{"parentCode": "110101", "code": "110101997", "name": "  "}, "请输入区划名称"},
			{map[string]any{"parentCode": "110101", "code": "11010a", "name": "x"}, "区划编号只能包含数字"},
			{map[string]any{"parentCode": "777777", "code": "777777001", "name": "x"}, "上级区划不存在"},
			{map[string]any{"parentCode": "110101", "code": "990101001", "name": "x"}, "区划编号须以上级区划编号开头"},
			{map[string]any{"parentCode": "110101999001", "code": "110101999001", "name": "x"}, "不能修改已有区划的上级区划"},
		}
		for _, c := range cases {
			if msg := admin.PostJSON(regionAPI+"submit", c.body).Fail(t, 400); msg != c.zh {
				t.Errorf("submit %v: %q, want %q", c.body, msg, c.zh)
			}
		}
		admin.PostJSON(regionAPI+"submit", `{"code": 11`).Fail(t, 400)
		admin.PostJSON(regionAPI+"submit", "").Fail(t, 400)
		admin.PostJSON(regionAPI+"submit", map[string]any{"code": "110101996", "parentCode": "110101", "name": "x", "sort": "first"}).Fail(t, 400)
		en := h.Admin()
		en.Lang = "en"
		if msg := en.PostJSON(regionAPI+"submit", map[string]any{"code": "110101997", "parentCode": "110101"}).Fail(t, 400); msg != "Please enter the region name" {
			t.Errorf("english: %q", msg)
		}
		if msg := en.PostJSON(regionAPI+"submit", map[string]any{"name": "x"}).Fail(t, 400); msg != "Please enter the region code" {
			t.Errorf("english: %q", msg)
		}

		// only the super user writes
		tenantAdmin.PostJSON(regionAPI+"submit", map[string]any{"parentCode": "110101", "code": "110101995", "name": "x"}).Fail(t, 403)
		tenantAdmin.Post(regionAPI+"remove", apptest.Q("id", "110101998")).Fail(t, 403)

		// remove refuses a region with children, then works leaf first
		if msg := admin.Post(regionAPI+"remove", apptest.Q("id", "110101")).Fail(t, 400); msg != "请先删除子节点" {
			t.Errorf("remove 东城区: %q", msg)
		}
		admin.Post(regionAPI+"remove", apptest.Q("id", "110101999")).Fail(t, 400)
		admin.Post(regionAPI+"remove", apptest.Q("id", "110101999001")).OK(t, nil)
		admin.Post(regionAPI+"remove", apptest.Q("id", "110101999")).OK(t, nil)
		admin.Get(regionAPI+"detail", apptest.Q("code", "110101999")).Fail(t, 404)
		admin.Post(regionAPI+"remove", apptest.Q("id", "110101999")).Fail(t, 404)
		admin.Post(regionAPI+"remove", nil).Fail(t, 400)
		admin.Post(regionAPI+"remove", apptest.Q("id", "1' OR 1=1")).Fail(t, 400)
		var dc regionRow
		admin.Get(regionAPI+"detail", apptest.Q("code", "110101")).OK(t, &dc)
	})
}

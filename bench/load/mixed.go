package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bluebird/console/internal/platform/db"
	"github.com/bluebird/console/internal/platform/wire"
)

// The mixed load (issue #8): writers of three kinds — tenant creation (the
// longest write transaction: role, department, menu grants, admin), user
// creation and parameter creation — beside readers of the hot pages, all at
// once on one SQLite file. It checks the write discipline: no 5xx, and a p99
// that stays small because writers queue for the one writer connection
// instead of spinning in SQLite's busy handler.
var (
	mixed  = flag.Bool("mixed", false, "run the mixed writers/readers load instead (see -mix, -d, -p99)")
	mix    = flag.String("mix", "tenant:1,user:2,param:2,read:3", "mixed load: connections per kind")
	maxP99 = flag.Duration("p99", 200*time.Millisecond, "mixed load: fail when the p99 of all requests is above this")
)

// mixKind is one kind of request of the mixed load.
type mixKind struct {
	name string
	// next makes the i-th request of this kind
	next func(i int64) (method, path string, body any)
}

type mixStats struct {
	mu       sync.Mutex
	lat      []time.Duration
	n5xx     int
	nFailed  int // other than a successful envelope
	firstBad string
}

func (s *mixStats) add(path string, d time.Duration, status int, ok bool, body []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lat = append(s.lat, d)
	if status >= 500 {
		s.n5xx++
	}
	if !ok {
		s.nFailed++
		if s.firstBad == "" {
			s.firstBad = fmt.Sprintf("(first: %s: HTTP %d %.200s)", path, status, body)
		}
	}
}

func runMixed() error {
	dir, err := os.MkdirTemp("", "bluebird-mixed-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if err := prepareDir(dir); err != nil {
		return err
	}
	roleID, deptID, err := firstRoleAndDept(dir)
	if err != nil {
		return err
	}
	srv, err := startServer(dir)
	if err != nil {
		return err
	}
	defer stop(srv)
	token, err := login()
	if err != nil {
		return err
	}

	run := strconv.FormatInt(time.Now().UnixMilli()%1_000_000, 36)
	kinds := map[string]mixKind{
		"tenant": {"tenant create", func(i int64) (string, string, any) {
			return "POST", "/api/blade-system/tenant/submit", map[string]any{"tenantName": fmt.Sprintf("负载租户%s-%d", run, i), "linkman": "bench"}
		}},
		"user": {"user create", func(i int64) (string, string, any) {
			account := fmt.Sprintf("mix%s%d", run, i)
			return "POST", "/api/blade-user/submit", map[string]any{"account": account, "name": "负载用户", "realName": "负载用户",
				"password": "123456", "roleId": roleID.String(), "deptId": deptID.String()}
		}},
		"param": {"param create", func(i int64) (string, string, any) {
			return "POST", "/api/blade-system/param/submit", map[string]any{"paramName": "负载参数", "paramKey": fmt.Sprintf("bench.mix.%s.%d", run, i), "paramValue": "v"}
		}},
		"read": {"read", func(i int64) (string, string, any) {
			reads := []string{"/api/blade-user/page?current=1&size=10", "/api/blade-system/param/list?current=1&size=10",
				"/api/blade-system/tenant/page?current=1&size=10", "/api/blade-system/menu/routes"}
			return "GET", reads[i%int64(len(reads))], nil
		}},
	}
	type worker struct {
		kind  mixKind
		stats *mixStats
	}
	var workers []worker
	var order []string
	stats := map[string]*mixStats{}
	for _, part := range strings.Split(*mix, ",") {
		name, count, _ := strings.Cut(strings.TrimSpace(part), ":")
		k, ok := kinds[name]
		n, err := strconv.Atoi(count)
		if !ok || err != nil || n < 0 {
			return fmt.Errorf("-mix: bad part %q (kinds: tenant, user, param, read)", part)
		}
		stats[name] = &mixStats{}
		order = append(order, name)
		for range n {
			workers = append(workers, worker{k, stats[name]})
		}
	}

	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: len(workers), MaxConnsPerHost: len(workers)}}
	do := func(k mixKind, i int64, st *mixStats) {
		method, path, body := k.next(i)
		var rd io.Reader
		if body != nil {
			b, _ := json.Marshal(body)
			rd = bytes.NewReader(b)
		}
		req, _ := http.NewRequest(method, "http://"+*addr+path, rd)
		req.Header.Set("Authorization", basic)
		req.Header.Set("Blade-Auth", "bearer "+token)
		if body != nil {
			req.Header.Set("Content-Type", "application/json")
		}
		t0 := time.Now()
		res, err := client.Do(req)
		if err != nil {
			st.add(path, time.Since(t0), 599, false, []byte(err.Error()))
			return
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		d := time.Since(t0)
		ok := res.StatusCode == 200
		if ok && body != nil {
			var env struct{ Success bool }
			ok = json.Unmarshal(b, &env) == nil && env.Success
		}
		st.add(path, d, res.StatusCode, ok, b)
	}

	fmt.Printf("mixed load for %v: %s (%d connections)\n", *duration, *mix, len(workers))
	cpu0 := cpuTicks(srv.Process.Pid)
	var seq atomic.Int64
	end := time.Now().Add(*duration)
	t0 := time.Now()
	var wg sync.WaitGroup
	for _, w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(end) {
				do(w.kind, seq.Add(1), w.stats)
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(t0)
	ticks := float64(cpuTicks(srv.Process.Pid) - cpu0)

	var all []time.Duration
	total5xx, totalFailed := 0, 0
	for _, name := range order {
		st := stats[name]
		all = append(all, st.lat...)
		total5xx += st.n5xx
		totalFailed += st.nFailed
		fmt.Printf("  %-13s %6d requests %7.1f/s  p50 %-9v p99 %-9v max %-9v 5xx %d, failed %d %s\n", kinds[name].name, len(st.lat),
			float64(len(st.lat))/elapsed.Seconds(), pct(st.lat, 50), pct(st.lat, 99), pct(st.lat, 100), st.n5xx, st.nFailed, st.firstBad)
	}
	p99 := pct(all, 99)
	fmt.Printf("  all           %6d requests %7.1f/s  p50 %-9v p99 %-9v max %-9v 5xx %d, failed %d; server CPU %.3f ms/request\n",
		len(all), float64(len(all))/elapsed.Seconds(), pct(all, 50), p99, pct(all, 100), total5xx, totalFailed, ticks*10/float64(max(len(all), 1)))
	switch {
	case total5xx > 0 || totalFailed > 0:
		return fmt.Errorf("mixed load: %d answers 5xx, %d failed", total5xx, totalFailed)
	case p99 > *maxP99:
		return fmt.Errorf("mixed load: p99 %v above %v", p99, *maxP99)
	}
	return nil
}

// pct is the p-th percentile of lat (sorting it), rounded for printing.
func pct(lat []time.Duration, p int) time.Duration {
	if len(lat) == 0 {
		return 0
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	i := len(lat) * p / 100
	if i >= len(lat) {
		i = len(lat) - 1
	}
	return lat[i].Round(100 * time.Microsecond)
}

// firstRoleAndDept are the platform tenant's first role and department, for
// the users the load creates (read with the server stopped).
func firstRoleAndDept(dir string) (roleID, deptID wire.ID, err error) {
	d, err := db.OpenSQLite(filepath.Join(dir, "bluebird.db"))
	if err != nil {
		return 0, 0, err
	}
	defer d.Close()
	ctx := context.Background()
	for table, id := range map[string]*wire.ID{"blade_role": &roleID, "blade_dept": &deptID} {
		if err := d.NewSelect().Table(table).Column("id").Where("tenant_id = '000000' AND is_deleted = 0").Order("sort").Limit(1).Scan(ctx, id); err != nil {
			return 0, 0, err
		}
	}
	return roleID, deptID, nil
}

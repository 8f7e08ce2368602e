// Command load is the load harness: it starts the real binary on a fresh
// SQLite data directory with 10,000 users, drives the hot endpoints over
// keep-alive connections, and reports throughput, latency and the server's
// own CPU time per request (from /proc, so the load generator's CPU is not
// counted). It also reports the time to ready on an empty directory and the
// idle RSS.
//
//	go build -o bin/bluebird ./cmd/bluebird && go run ./bench/load -bin bin/bluebird
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bluebird/console/bench"
	"github.com/bluebird/console/internal/platform/authn"
	"github.com/bluebird/console/internal/platform/db"
)

var (
	bin      = flag.String("bin", "bin/bluebird", "the bluebird binary")
	conns    = flag.Int("c", 8, "concurrent connections")
	duration = flag.Duration("d", 10*time.Second, "duration per endpoint")
	users    = flag.Int("users", 10000, "users in the tenant")
	addr     = flag.String("addr", "127.0.0.1:18080", "listen address for the server under test")
	only     = flag.String("only", "", "drive only paths containing this text")
	prepare  = flag.String("prepare", "", "only make a data directory here (first start, then the users) and exit; bench/wrk.sh uses it")
)

const basic = "Basic c2FiZXI6c2FiZXJfc2VjcmV0"

func main() {
	flag.Parse()
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "load:", err)
		os.Exit(1)
	}
}

func run() error {
	if *prepare != "" {
		return prepareDir(*prepare)
	}
	if *mixed {
		return runMixed()
	}
	dir, err := os.MkdirTemp("", "bluebird-load-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)

	// 1. Time to ready on an empty data directory.
	start := time.Now()
	srv, err := startServer(dir)
	if err != nil {
		return err
	}
	fmt.Printf("ready on an empty data directory (migrate + seed + listen): %v\n", time.Since(start).Round(time.Millisecond))
	time.Sleep(2 * time.Second)
	fmt.Printf("idle RSS after start: %.1f MB\n", rssMB(srv.Process.Pid))
	stop(srv)

	// 2. Add the users with the server stopped, then start it again.
	if err := seedUsers(dir); err != nil {
		return err
	}
	if srv, err = startServer(dir); err != nil {
		return err
	}
	defer stop(srv)
	time.Sleep(2 * time.Second)
	fmt.Printf("idle RSS after a plain restart: %.1f MB\n", rssMB(srv.Process.Pid))
	token, err := login()
	if err != nil {
		return err
	}
	for _, path := range []string{"/api/blade-user/page?current=1&size=10", "/api/blade-system/menu/routes"} {
		if *only != "" && !strings.Contains(path, *only) {
			continue
		}
		if err := drive(srv.Process.Pid, token, path); err != nil {
			return err
		}
	}
	time.Sleep(2 * time.Second)
	fmt.Printf("RSS after load: %.1f MB\n", rssMB(srv.Process.Pid))
	return nil
}

// seedUsers adds the users to a stopped server's data directory.
func seedUsers(dir string) error {
	d, err := db.OpenSQLite(filepath.Join(dir, "bluebird.db"))
	if err != nil {
		return err
	}
	defer d.Close()
	return bench.SeedUsers(context.Background(), d, "000000", *users)
}

// prepareDir makes a ready data directory: a first start of the binary
// (migrate and seed), then the users.
func prepareDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	srv, err := startServer(dir)
	if err != nil {
		return err
	}
	stop(srv)
	return seedUsers(dir)
}

func startServer(dir string) (*exec.Cmd, error) {
	cmd := exec.Command(*bin, "serve", "--addr", *addr, "--data", dir)
	cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		res, err := http.Get("http://" + *addr + "/readyz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == 200 {
				return cmd, nil
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
	cmd.Process.Kill()
	return nil, fmt.Errorf("server not ready")
}

func stop(cmd *exec.Cmd) {
	cmd.Process.Signal(os.Interrupt)
	cmd.Wait()
}

func login() (string, error) {
	url := "http://" + *addr + "/api/blade-auth/oauth/token?tenantId=000000&username=admin&password=" + authn.MD5Hex("admin") + "&grant_type=password&scope=all"
	req, _ := http.NewRequest("POST", url, nil)
	req.Header.Set("Authorization", basic)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer res.Body.Close()
	var body struct {
		AccessToken string `json:"access_token"`
	}
	if err := json.NewDecoder(res.Body).Decode(&body); err != nil || body.AccessToken == "" {
		return "", fmt.Errorf("login failed (%d)", res.StatusCode)
	}
	return body.AccessToken, nil
}

// drive runs the load against one path and prints the figures.
func drive(pid int, token, path string) error {
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: *conns, MaxConnsPerHost: *conns}}
	get := func() (time.Duration, error) {
		req, _ := http.NewRequest("GET", "http://"+*addr+path, nil)
		req.Header.Set("Authorization", basic)
		req.Header.Set("Blade-Auth", "bearer "+token)
		t0 := time.Now()
		res, err := client.Do(req)
		if err != nil {
			return 0, err
		}
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode != 200 {
			return 0, fmt.Errorf("%s: HTTP %d", path, res.StatusCode)
		}
		return time.Since(t0), nil
	}
	// warm up
	for i := 0; i < 200; i++ {
		if _, err := get(); err != nil {
			return err
		}
	}
	cpu0 := cpuTicks(pid)
	var count atomic.Int64
	var mu sync.Mutex
	var lat []time.Duration
	var firstErr error
	end := time.Now().Add(*duration)
	t0 := time.Now()
	var wg sync.WaitGroup
	for i := 0; i < *conns; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			local := make([]time.Duration, 0, 4096)
			for time.Now().Before(end) {
				d, err := get()
				if err != nil {
					mu.Lock()
					firstErr = err
					mu.Unlock()
					return
				}
				local = append(local, d)
				count.Add(1)
			}
			mu.Lock()
			lat = append(lat, local...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	elapsed := time.Since(t0)
	cpu1 := cpuTicks(pid)
	if firstErr != nil {
		return firstErr
	}
	n := count.Load()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	ticks := float64(cpu1 - cpu0) // clock ticks of 1/100 s
	fmt.Printf("GET %s: %d requests in %v at %d connections: %.0f req/s, server CPU %.3f ms/request, p50 %v, p99 %v\n",
		path, n, elapsed.Round(time.Millisecond), *conns, float64(n)/elapsed.Seconds(), ticks*10/float64(n),
		lat[len(lat)/2].Round(time.Microsecond), lat[len(lat)*99/100].Round(time.Microsecond))
	return nil
}

// cpuTicks is utime+stime of a process in clock ticks (USER_HZ = 100 on Linux).
func cpuTicks(pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	s := string(b)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	ut, _ := strconv.ParseInt(fields[11], 10, 64)
	st, _ := strconv.ParseInt(fields[12], 10, 64)
	return ut + st
}

func rssMB(pid int) float64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "VmRSS:") {
			kb, _ := strconv.ParseFloat(strings.Fields(line)[1], 64)
			return kb / 1024
		}
	}
	return 0
}

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/bluebird/console/internal/apptest"
	"github.com/bluebird/console/internal/platform/db"
)

// The test binary is the server too: with BLUEBIRD_CRASH_CHILD set it runs
// `serve` (its settings from the BLUEBIRD_* environment), so the crash test
// can kill a real server process without building the binary first.
func TestMain(m *testing.M) {
	if os.Getenv("BLUEBIRD_CRASH_CHILD") == "1" {
		os.Exit(exitCode(run([]string{"serve"}), os.Stderr))
	}
	os.Exit(m.Run())
}

type child struct {
	cmd  *exec.Cmd
	base string
	logs *bytes.Buffer
}

func freeAddr(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// startChild starts the server on dataDir (and dbURL, "" for SQLite) and
// waits until it answers /readyz.
func startChild(t *testing.T, dataDir, dbURL string) *child {
	t.Helper()
	addr := freeAddr(t)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	logs := &bytes.Buffer{}
	cmd.Stdout, cmd.Stderr = logs, logs
	cmd.Env = append(os.Environ(), "BLUEBIRD_CRASH_CHILD=1", "BLUEBIRD_ADDR="+addr, "BLUEBIRD_DATA="+dataDir, "BLUEBIRD_DB="+dbURL,
		"BLUEBIRD_LOG_LEVEL=error", "BLUEBIRD_REDIS=")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &child{cmd: cmd, base: "http://" + addr, logs: logs}
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if r, err := http.Get(c.base + "/readyz"); err == nil {
			r.Body.Close()
			if r.StatusCode == 200 {
				return c
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	_ = cmd.Process.Kill()
	t.Fatalf("the server did not start: %s", logs)
	return nil
}

// post sends a JSON body (or none) with the token and tells whether the
// server acknowledged it (HTTP 200 with success), with the answer's data.
func post(client *http.Client, base, token, path string, body any) (bool, json.RawMessage) {
	var rd *bytes.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	} else {
		rd = bytes.NewReader(nil)
	}
	req, _ := http.NewRequest("POST", base+path, rd)
	req.Header.Set("Authorization", apptest.Basic)
	req.Header.Set("Blade-Auth", "bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	res, err := client.Do(req)
	if err != nil {
		return false, nil
	}
	defer res.Body.Close()
	var env struct {
		Success bool            `json:"success"`
		Data    json.RawMessage `json:"data"`
	}
	if json.NewDecoder(res.Body).Decode(&env) != nil {
		return false, nil
	}
	return res.StatusCode == 200 && env.Success, env.Data
}

// TestCrashDuringPostings: receipts are posted from several clients while
// the server is killed with SIGKILL; after a restart every acknowledged
// posting is there, and no receipt is half-posted: a receipt is in stock
// exactly when its ledger rows are, and the balances are the ledger's sums.
func TestCrashDuringPostings(t *testing.T) {
	if testing.Short() {
		t.Skip("starts and kills server processes")
	}
	kinds := map[string]string{"sqlite": ""}
	if os.Getenv(apptest.PGEnv) != "" {
		kinds["postgres"] = apptest.EmptyPostgres(t)
	}
	for kind, dbURL := range kinds {
		t.Run(kind, func(t *testing.T) {
			dataDir := t.TempDir()
			c := startChild(t, dataDir, dbURL)
			h := &apptest.H{T: t, Server: &httptest.Server{URL: c.base}, Kind: kind}
			_, admin := h.NewTenant("Crash Co")
			var w, m, s struct {
				ID string `json:"id"`
			}
			admin.PostJSON("/api/bluebird-basic/warehouse/submit", map[string]any{"warehouseCode": "W1", "warehouseName": "仓", "warehouseType": 1}).OK(t, &w)
			var roots struct {
				Records []struct {
					ID string `json:"id"`
				} `json:"records"`
			}
			admin.Get("/api/bluebird-basic/warehouseposition/list", apptest.Q("warehouseId", w.ID)).OK(t, &roots)
			admin.PostJSON("/api/bluebird-basic/material/submit", map[string]any{"materialCode": "M1", "materialName": "料", "unit": "pcs"}).OK(t, &m)
			admin.PostJSON("/api/bluebird-basic/suppliermain/submit", map[string]any{"supplierCode": "S1", "supplierName": "供"}).OK(t, &s)
			token := admin.Token
			const path = "/api/bluebird-basic/materialinrecordmain/"

			var acked sync.Map // receipt id → true once its posting was acknowledged
			var attempts, posted atomic.Int64
			stop := make(chan struct{})
			var wg sync.WaitGroup
			client := &http.Client{Timeout: 10 * time.Second}
			for range 6 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for {
						select {
						case <-stop:
							return
						default:
						}
						attempts.Add(1)
						ok, data := post(client, c.base, token, path+"saveMaterialInRecord", map[string]any{"inType": 1, "warehouseId": w.ID, "supplierId": s.ID,
							"details": []map[string]any{
								{"materialId": m.ID, "qty": "1.5", "positionId": roots.Records[0].ID, "unitPrice": "2"},
								{"materialId": m.ID, "qty": "2", "positionId": roots.Records[0].ID, "unitPrice": "3"},
							}})
						if !ok {
							continue
						}
						var doc struct {
							ID string `json:"id"`
						}
						_ = json.Unmarshal(data, &doc)
						if ok, _ := post(client, c.base, token, path+"startProcess?ids="+doc.ID, nil); !ok {
							continue
						}
						if ok, _ := post(client, c.base, token, path+"submitInStockMaterial?ids="+doc.ID, nil); ok {
							acked.Store(doc.ID, true)
							posted.Add(1)
						}
					}
				}()
			}
			// kill once postings are flowing
			deadline := time.Now().Add(30 * time.Second)
			for posted.Load() < 20 && time.Now().Before(deadline) {
				time.Sleep(20 * time.Millisecond)
			}
			time.Sleep(150 * time.Millisecond)
			if err := c.cmd.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			_ = c.cmd.Wait()
			close(stop)
			wg.Wait()
			if posted.Load() < 20 {
				t.Fatalf("only %d postings before the kill (%d attempts): %s", posted.Load(), attempts.Load(), c.logs)
			}

			// restart: every acknowledged receipt is in stock
			c = startChild(t, dataDir, dbURL)
			h.Server = &httptest.Server{URL: c.base}
			admin = h.Login(admin.Login["tenant_id"].(string), "admin", "admin")
			n := 0
			acked.Range(func(k, _ any) bool {
				var doc struct {
					StockStatus int `json:"stockStatus"`
				}
				admin.Get(path+"detail", apptest.Q("id", k.(string))).OK(t, &doc)
				if doc.StockStatus != 2 {
					t.Errorf("acknowledged receipt %s is not in stock after the restart (stockStatus %d)", k, doc.StockStatus)
				}
				n++
				return true
			})
			_ = c.cmd.Process.Signal(syscall.SIGTERM)
			_ = c.cmd.Wait()

			// no receipt is half-posted; the balances are the ledger's sums
			var d *db.DB
			var err error
			if dbURL == "" {
				d, err = db.OpenSQLite(filepath.Join(dataDir, "bluebird.db"))
			} else {
				d, err = db.OpenPostgres(dbURL)
			}
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			ctx := context.Background()
			var half []string
			if err := d.NewRaw(`SELECT doc_no FROM bb_material_in i WHERE is_deleted = 0 AND
				(stock_status = 2) <> ((SELECT COUNT(*) FROM bb_stock_ledger l WHERE l.biz_id = i.id) = 2)`).Scan(ctx, &half); err != nil {
				t.Fatal(err)
			}
			if len(half) > 0 {
				t.Errorf("half-posted receipts: %v", half)
			}
			var mismatched int
			if err := d.NewRaw(`SELECT COUNT(*) FROM bb_stock_balance b WHERE b.qty <> (SELECT `+db.DecimalSumFunc(dbURL != "")+`(l.qty) FROM bb_stock_ledger l
				WHERE l.tenant_id = b.tenant_id AND l.item_id = b.item_id AND l.warehouse_id = b.warehouse_id AND l.position_id = b.position_id AND l.batch_no = b.batch_no)`).
				Scan(ctx, &mismatched); err != nil {
				t.Fatal(err)
			}
			if mismatched != 0 {
				t.Errorf("%d balances differ from their ledger", mismatched)
			}
			t.Logf("%s: %d postings acknowledged of %d attempts before SIGKILL; %d checked after the restart", kind, posted.Load(), attempts.Load(), n)
		})
	}
}

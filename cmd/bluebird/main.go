// Command bluebird is the console: one binary serving the API and the web app.
//
//	bluebird serve    start the server (migrates and seeds on first start)
//	bluebird migrate  apply migrations and seed, then exit
//	bluebird backup   write a consistent copy of the SQLite database
//	bluebird openapi  print the OpenAPI document
//	bluebird help     print the usage (also -h, --help); a command line it does not understand exits 2
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/bluebird/console/internal/app"
	"github.com/bluebird/console/internal/platform/config"
	"github.com/bluebird/console/internal/platform/db"
)

func main() {
	os.Exit(exitCode(run(os.Args[1:]), os.Stderr))
}

// usageError is a command line the binary does not understand: exit status 2, as the flag package
// and most Unix tools do, so that scripts can tell it from a failure of the command itself (1).
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }

// exitCode reports err and says what the process exits with.
func exitCode(err error, stderr io.Writer) int {
	if err == nil {
		return 0
	}
	fmt.Fprintln(stderr, "bluebird:", err)
	if errors.As(err, new(usageError)) {
		return 2
	}
	return 1
}

var commands = []struct{ name, help string }{
	{"serve", "start the server (the default; an empty database is migrated and seeded first)"},
	{"migrate", "apply the migrations and seed, then exit"},
	{"backup", "copy the SQLite database (VACUUM INTO, while it runs) and the uploaded files into --out"},
	{"openapi", "print the OpenAPI document (also served at /api/openapi.json)"},
	{"help", "print this help (also -h, --help)"},
}

// usage prints the commands and the flags of fs to w.
func usage(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprint(w, "Bluebird console: one binary serving the BladeX-compatible API under /api and the web app.\n\n")
	fmt.Fprint(w, "Usage:\n  bluebird [command] [flags]\n\nCommands:\n")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.help)
	}
	fmt.Fprint(w, "\nFlags (each has a default from the environment variable it names):\n")
	fs.SetOutput(w)
	fs.PrintDefaults()
}

func run(args []string) error {
	cmd := "serve"
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		cmd, args = args[0], args[1:]
	}
	fs := flag.NewFlagSet(cmd, flag.ContinueOnError)
	var cfg config.Config
	cfg.Bind(fs)
	out := fs.String("out", "", "backup directory, created (default: <data>/backup/bluebird-<time>)")
	// run prints the usage itself: on stdout when asked for, on stderr after a mistake, where
	// exitCode reports the mistake once (the flag package would print it too).
	fs.Usage = func() {}
	fs.SetOutput(io.Discard)
	known := false
	for _, c := range commands {
		known = known || c.name == cmd
	}
	if !known {
		usage(os.Stderr, fs)
		return usageError{fmt.Errorf("unknown command %q", cmd)}
	}
	err := fs.Parse(args)
	if cmd == "help" || errors.Is(err, flag.ErrHelp) {
		usage(os.Stdout, fs)
		return nil
	}
	if err != nil {
		usage(os.Stderr, fs)
		return usageError{err}
	}
	if fs.NArg() > 0 {
		usage(os.Stderr, fs)
		return usageError{fmt.Errorf("unexpected argument %q", fs.Arg(0))}
	}
	logger := newLogger(cfg.LogLevel)
	slog.SetDefault(logger)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	switch cmd {
	case "serve":
		return serve(ctx, cfg, logger)
	case "migrate":
		a, err := app.New(ctx, cfg, logger)
		if err != nil {
			return err
		}
		return a.Close()
	case "openapi":
		a, err := app.New(ctx, cfg, logger)
		if err != nil {
			return err
		}
		defer a.Close()
		b, err := a.OpenAPI()
		if err != nil {
			return err
		}
		_, err = os.Stdout.Write(append(b, '\n'))
		return err
	default: // backup
		return backup(ctx, cfg, *out)
	}
}

func newLogger(level string) *slog.Logger {
	var l slog.Level
	if err := l.UnmarshalText([]byte(level)); err != nil {
		l = slog.LevelInfo
	}
	return slog.New(slog.NewJSONHandler(os.Stderr, &slog.HandlerOptions{Level: l}))
}

func serve(ctx context.Context, cfg config.Config, logger *slog.Logger) error {
	start := time.Now()
	tuneGC()
	a, err := app.New(ctx, cfg, logger)
	if err != nil {
		return err
	}
	defer a.Close()
	// BLUEBIRD_CPUPROFILE writes a CPU profile of the whole run (for the load harness).
	if path := os.Getenv("BLUEBIRD_CPUPROFILE"); path != "" {
		f, err := os.Create(path)
		if err != nil {
			return err
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	// A first start allocates a lot (seeding); give it back before idling.
	debug.FreeOSMemory()
	handler := trimWhenIdle(ctx, a.Handler, 30*time.Second)
	srv := &http.Server{Addr: cfg.Addr, Handler: handler, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 120 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- srv.ListenAndServe() }()
	store := "sqlite " + cfg.SQLitePath()
	if cfg.IsPostgres() {
		store = "postgres"
	}
	logger.Info("ready", "addr", cfg.Addr, "store", store, "startup", time.Since(start).String())
	fmt.Fprintf(os.Stderr, "\nBluebird console: http://%s/  (tenant 000000, admin / admin)\n\n", cfg.Addr)
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	logger.Info("shutting down")
	shutdown, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// tuneGC trades memory under load for CPU: with the collector running at a
// heap of five times the live data instead of twice (GOGC=400), a loaded
// server spends 7-10% less CPU per request, for about 28 MB more resident
// memory while busy (trimWhenIdle hands it back). The memory limit keeps
// bursts that hold a lot live (an argon2 check takes 19 MB) from multiplying
// the heap goal. It is set before the app is built: set afterwards, it costs
// 2 MB of idle RSS. GOGC and GOMEMLIMIT in the environment win.
func tuneGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(256 << 20)
	}
}

// trimWhenIdle gives the free heap back to the OS when the server is quiet
// again after a busy spell or a login (an argon2 check takes 19 MB), so that
// it idles near its start-up size: every `every`, if requests came in at
// under 10 a second (health checks, metric scrapes and a person clicking
// around are quiet; a load test is not) and the heap holds 8 MB more than
// after the last trim.
// The cost per request is one atomic add.
func trimWhenIdle(ctx context.Context, h http.Handler, every time.Duration) http.Handler {
	const slack = 8 << 20 // retained heap growth worth a trim
	quiet := uint64(10 * every / time.Second)
	var served atomic.Uint64
	go func() {
		t := time.NewTicker(every)
		defer t.Stop()
		last, base := served.Load(), heapRetained()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			n := served.Load()
			busy := n-last >= quiet
			last = n
			if !busy && heapRetained() > base+slack {
				debug.FreeOSMemory()
				base = heapRetained()
			}
		}
	}()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		served.Add(1)
		h.ServeHTTP(w, r)
	})
}

// heapRetained is the heap memory the runtime holds from the OS.
func heapRetained() uint64 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapSys - ms.HeapReleased
}

// backup writes a directory holding a consistent copy of the SQLite database
// (VACUUM INTO, safe while the server runs) and a copy of the uploaded files:
// the rows of blade_attach point at those files, and a database restored
// without them would serve broken links.
func backup(ctx context.Context, cfg config.Config, out string) error {
	if cfg.IsPostgres() {
		return errors.New("backup is for the embedded SQLite database; use pg_dump for PostgreSQL and copy the files directory")
	}
	src := cfg.SQLitePath()
	if _, err := os.Stat(src); err != nil {
		return fmt.Errorf("no database at %s: %w", src, err)
	}
	if out == "" {
		out = filepath.Join(cfg.DataDir, "backup", "bluebird-"+time.Now().Format("20060102-150405"))
	}
	if _, err := os.Stat(out); err == nil {
		return fmt.Errorf("%s exists", out)
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	d, err := db.OpenSQLite(src)
	if err != nil {
		return err
	}
	defer d.Close()
	if _, err := d.ExecContext(ctx, "VACUUM INTO ?", filepath.Join(out, filepath.Base(src))); err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	// Files are written once under generated names and never changed, so a
	// copy taken after the database snapshot holds every file it refers to.
	if err := copyTree(cfg.FilesRoot(), filepath.Join(out, "files")); err != nil {
		return fmt.Errorf("backup of the files: %w", err)
	}
	fmt.Println(out)
	return nil
}

// copyTree copies the regular files under src to dst, keeping the layout; a
// missing src (no upload yet) copies nothing.
func copyTree(src, dst string) error {
	if _, err := os.Stat(src); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return filepath.WalkDir(src, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		if e.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !e.Type().IsRegular() {
			return nil
		}
		return copyFile(path, target)
	})
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

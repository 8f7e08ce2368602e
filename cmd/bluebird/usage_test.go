package main

import (
	"bytes"
	"io"
	"os"
	"strings"
	"testing"
)

// capture runs f with os.Stdout and os.Stderr redirected, and returns what each received.
func capture(t *testing.T, f func()) (stdout, stderr string) {
	t.Helper()
	read := func(target **os.File) (func() string, func()) {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		saved := *target
		*target = w
		var buf bytes.Buffer
		done := make(chan struct{})
		go func() { _, _ = io.Copy(&buf, r); close(done) }()
		return func() string { <-done; return buf.String() }, func() { *target = saved; _ = w.Close() }
	}
	outText, restoreOut := read(&os.Stdout)
	errText, restoreErr := read(&os.Stderr)
	f()
	restoreOut()
	restoreErr()
	return outText(), errText()
}

func TestHelpPrintsUsageAndSucceeds(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"-h"}, {"help"}, {"serve", "-h"}, {"backup", "--help"}} {
		var err error
		stdout, stderr := capture(t, func() { err = run(args) })
		if code := exitCode(err, io.Discard); code != 0 {
			t.Errorf("%v: exit %d (%v)", args, code, err)
		}
		for _, want := range []string{"Usage:", "serve", "migrate", "backup", "openapi", "-addr", "BLUEBIRD_DB", "-out"} {
			if !strings.Contains(stdout, want) {
				t.Errorf("%v: usage on stdout lacks %q:\n%s", args, want, stdout)
			}
		}
		if stderr != "" {
			t.Errorf("%v: help wrote to stderr: %q", args, stderr)
		}
	}
}

func TestCommandLineMistakesExit2WithUsage(t *testing.T) {
	for _, args := range [][]string{{"bogus"}, {"--no-such-flag"}, {"migrate", "extra"}} {
		var err error
		stdout, stderr := capture(t, func() { err = run(args) })
		if code := exitCode(err, io.Discard); code != 2 {
			t.Errorf("%v: exit %d (%v), want 2", args, code, err)
		}
		if !strings.Contains(stderr, "Usage:") || stdout != "" {
			t.Errorf("%v: want the usage on stderr only; stdout %q, stderr %q", args, stdout, stderr)
		}
	}
}

package main

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/cli"
	"github.com/batchq/batchq/examples/internal/cli/clitest"
)

// The shared CLI table on a client command (JSON from an in-process
// service, flags after the arguments) and on serve (a missing -tokens file).
func TestCLI(t *testing.T) {
	_, srv := newTestServer(t)
	missing := filepath.Join(t.TempDir(), "tokens")
	clitest.Run(t, clitest.Command{Run: command,
		JSON:    []string{"ksystem", "s1", "-server", srv.URL, "-json"},
		Missing: []string{"serve", "-addr", "127.0.0.1:0", "-db", "", "-tokens", missing}, File: missing})
}

// -server host:port without a scheme is a usage error that shows the URL
// wanted, not url.Parse's message.
func TestServerFlag(t *testing.T) {
	for _, c := range []struct{ server, want string }{
		{"localhost:8080", `want the service's URL, such as http://localhost:8080`},
		{"127.0.0.1:8080", `such as http://127.0.0.1:8080`},
		{"ftp://h:1", `such as http://host:port`},
		{"http://", `such as http://host:port`},
		{"http://127.0.0.1:1/?x", `such as http://host:port`}, // (the paths went into the query)
		{"http://127.0.0.1:1/#y", `such as http://host:port`}, // (the paths went into the fragment)
		{"http://127.0.0.1:1/?", `such as http://host:port`},
	} {
		r := clitest.Exec(command, "", "ksystems", "-server", c.server)
		if r.Code != cli.ExitUsage || !strings.Contains(r.Stderr, c.want) || strings.Contains(r.Stderr, "parse") {
			t.Errorf("-server %s: exit %d, stderr %q; want %d and %q", c.server, r.Code, r.Stderr, cli.ExitUsage, c.want)
		}
	}
}

// A -replay trace that is missing, a directory, empty or malformed at its
// first line is exit 1 naming it before serve makes its tokens file and
// database or listens: it was found by the replay after all three, which
// left qserve.db and qserve.db.tokens behind for a mistyped path.
func TestServeReplayCheckedFirst(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.swf")
	bad := filepath.Join(dir, "bad.swf")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte("; Version: 2.2\n1 0 x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ path, want string }{
		{filepath.Join(dir, "missing.swf"), "no such file"},
		{dir, "is a directory"},
		{empty, "no job lines"},
		{bad, "bad.swf"},
	} {
		db := filepath.Join(t.TempDir(), "qserve.db")
		r := clitest.Exec(command, "", "serve", "-addr", "127.0.0.1:0", "-db", db, "-replay", "kth="+c.path)
		if r.Code != cli.ExitError || !strings.Contains(r.Stderr, c.path) || !strings.Contains(r.Stderr, c.want) {
			t.Errorf("-replay %s: exit %d, stderr %q; want %d naming the file and %q", c.path, r.Code, r.Stderr, cli.ExitError, c.want)
		}
		if strings.Contains(r.Stderr, "listening") {
			t.Errorf("-replay %s: the service listened: %q", c.path, r.Stderr)
		}
		for _, f := range []string{db, db + ".tokens"} {
			if _, err := os.Stat(f); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("-replay %s: %s made (stat: %v)", c.path, f, err)
			}
		}
	}
}

package main

import (
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
	} {
		r := clitest.Exec(command, "", "ksystems", "-server", c.server)
		if r.Code != cli.ExitUsage || !strings.Contains(r.Stderr, c.want) || strings.Contains(r.Stderr, "parse") {
			t.Errorf("-server %s: exit %d, stderr %q; want %d and %q", c.server, r.Code, r.Stderr, cli.ExitUsage, c.want)
		}
	}
}

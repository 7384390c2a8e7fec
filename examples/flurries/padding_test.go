package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/cli/clitest"
	"github.com/batchq/batchq/internal/tracetest"
)

// Zero padding after a gzip log's last member is ignored and said on
// standard error, once per log however often the experiments read it, in
// simulate's and swfstat's words: flurries read through swf.ReadFile,
// which drops the count, and said nothing. Its output (README.md's
// tables, -json's too) is as without the padding, but for -json's note
// of it under logs (trailing_zero_bytes, simulate's and swfstat's key).
func TestGzipPaddingNoted(t *testing.T) {
	dir := t.TempDir()
	clitest.WriteTrace(t, dir, tracetest.LANLCM5, 60, 64)
	padded := t.TempDir()
	clitest.Pad(t, clitest.WriteTrace(t, padded, tracetest.LANLCM5, 60, 64), 1000)
	want := "flurries: " + tracetest.LANLCM5 + ": 1000 zero bytes after the last gzip member ignored\n"
	figures := filepath.Join(t.TempDir(), "figures")
	for _, extra := range [][]string{nil, {"-json"}, {"-plot", figures, "-plot-logs", "LANL"}} { // (the figures read the log too)
		args := func(traces string) []string { return append([]string{"-traces", traces, "-exp", "lanl"}, extra...) }
		plain, got := clitest.Exec(run, "", args(dir)...), clitest.Exec(run, "", args(padded)...)
		if plain.Code != 0 || got.Code != 0 || plain.Stderr != "" {
			t.Fatalf("%v: exit %d, %d; stderr %q, %q", extra, plain.Code, got.Code, plain.Stderr, got.Stderr)
		}
		if got.Stderr != want {
			t.Errorf("%v: stderr %q; want %q", extra, got.Stderr, want)
		}
		if extra != nil && extra[0] == "-json" {
			note := `,
  "logs": {
    "` + tracetest.LANLCM5 + `": {
      "trailing_zero_bytes": 1000
    }
  }
}
`
			if !strings.HasSuffix(got.Stdout, note) {
				t.Errorf("-json: the padding is not noted under logs:\n%s", got.Stdout)
			}
			got.Stdout = strings.TrimSuffix(got.Stdout, note) + "\n}\n"
		}
		if got.Stdout != plain.Stdout {
			t.Errorf("%v: the padding changed the output:\n%s\nwithout:\n%s", extra, got.Stdout, plain.Stdout)
		}
	}
}

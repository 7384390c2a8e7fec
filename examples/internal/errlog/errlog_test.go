package errlog

import (
	"bytes"
	"fmt"
	"log"
	"strings"
	"testing"
	"time"
)

// At most Burst lines a period pass, each on one line and at most
// MaxLine bytes (and the cut's mark); the next period's first line is
// preceded by the count of those left out.
func TestLogBounded(t *testing.T) {
	var out bytes.Buffer
	at := time.Unix(1e9, 0)
	e := New(log.New(&out, "", 0))
	e.now = func() time.Time { return at }
	l := e.Logger()
	long := strings.Repeat("é", MaxLine) + "\nforged line\n"
	for range Burst + 5 {
		l.Print(long)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != Burst {
		t.Fatalf("%d lines written in a period, %d logged, want %d", Burst+5, len(lines), Burst)
	}
	for _, s := range lines {
		if len(s) > MaxLine+len("…") || !strings.HasSuffix(s, "…") {
			t.Fatalf("a line of %d bytes logged as %d: %.80q", len(long), len(s), s)
		}
	}
	at = at.Add(Period)
	l.Print("next")
	if got := out.String(); !strings.HasSuffix(got, fmt.Sprintf("5 more server errors not logged (at most %d a %v)\nnext\n", Burst, Period)) {
		t.Errorf("the next period: %q", got[len(got)-min(len(got), 200):])
	}
	e.Flush()
	if got := out.String(); !strings.HasSuffix(got, "\nnext\n") {
		t.Errorf("a flush with nothing left out wrote %q", got[len(got)-min(len(got), 200):])
	}
	out.Reset()
	l.Print("a\nb\x1b[31m")
	if got := out.String(); got != "a b [31m\n" {
		t.Errorf("control characters: %q, want them as spaces", got)
	}
}

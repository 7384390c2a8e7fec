package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/batchq/batchq/examples/internal/cli"
)

// -max-systems sets karnak.Config.MaxSystems, which an operator could not
// set: given before or after the other flags, a service of 2 systems
// refuses a third with a 403 that names the flag, and a negative count is
// a usage error naming it, found before the service listens.
func TestServeMaxSystems(t *testing.T) {
	for _, args := range [][]string{{"-max-systems", "-1"}, {"-max-systems=-9223372036854775808"}, {"-max-systems", "x"}} {
		var out, errb strings.Builder
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second) // a service that started stops
		err := run(ctx, append([]string{"serve", "-addr", "127.0.0.1:0", "-db", "", "-tokens", "off"}, args...), &out, &errb)
		cancel()
		if !errors.As(err, new(cli.UsageError)) || !strings.Contains(err.Error(), "max-systems") || strings.Contains(err.Error(), "not defined") || strings.Contains(errb.String(), "listening") {
			t.Errorf("%q: %v (log %q), want a usage error naming max-systems, before listening", args, err, errb.String())
		}
	}
	if testing.Short() {
		t.Skip("starts subprocesses")
	}
	for _, flags := range [][]string{{"-max-systems", "2", "-tokens", "off"}, {"-tokens", "off", "-max-systems=2"}} {
		_, url := startChild(t, filepath.Join(t.TempDir(), "q.db"), flags...)
		for i, want := range []int{200, 200, 403} {
			body := fmt.Sprintf(`{"kind":"queue","system":"s%d","time":%d,"queue":"q","cores":8,"wallTime":3600}`, i, testNow)
			code, msg := do(t, "POST", url+"/karnak/events", "application/json", body)
			if code != want || (want == 403 && !strings.Contains(msg, "at most 2 (set by the operator: qserve -max-systems")) {
				t.Errorf("%q: system %d: %d %q, want %d (a 403 naming -max-systems)", flags, i+1, code, msg, want)
			}
		}
	}
}

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

// -max-queues and -max-live-jobs set karnak.Config.MaxQueues and
// MaxLiveJobs as -max-systems sets MaxSystems: given before or after the
// other flags, a system of 2 queues refuses a third, and one of 2 live
// jobs a third submission, with a 400 that names the flag; a negative or
// non-numeric count is a usage error naming it, before the service
// listens.
func TestServeMaxQueuesLiveJobs(t *testing.T) {
	limits := []struct {
		flag   string
		events func(i int) string // the i-th event after the system's queue q0
	}{
		{"max-queues", func(i int) string {
			return fmt.Sprintf(`{"kind":"queue","system":"s","time":%d,"queue":"q%d","cores":8,"wallTime":3600}`, testNow, i)
		}},
		{"max-live-jobs", func(i int) string {
			return fmt.Sprintf(`{"kind":"submit","system":"s","job":%d,"time":%d,"queue":"q0","cores":1,"wallTime":60}`, 100+i, testNow)
		}},
	}
	for _, l := range limits {
		for _, args := range [][]string{{"-" + l.flag, "-1"}, {"-" + l.flag + "=-9223372036854775808"}, {"-" + l.flag, "x"}} {
			var out, errb strings.Builder
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second) // a service that started stops
			err := run(ctx, append([]string{"serve", "-addr", "127.0.0.1:0", "-db", "", "-tokens", "off"}, args...), &out, &errb)
			cancel()
			if !errors.As(err, new(cli.UsageError)) || !strings.Contains(err.Error(), l.flag) || strings.Contains(err.Error(), "not defined") || strings.Contains(errb.String(), "listening") {
				t.Errorf("%q: %v (log %q), want a usage error naming %s, before listening", args, err, errb.String(), l.flag)
			}
		}
	}
	if testing.Short() {
		t.Skip("starts subprocesses")
	}
	for _, l := range limits {
		for _, flags := range [][]string{{"-" + l.flag, "2", "-tokens", "off"}, {"-tokens", "off", "-" + l.flag + "=2"}} {
			_, url := startChild(t, filepath.Join(t.TempDir(), "q.db"), flags...)
			if code, msg := do(t, "POST", url+"/karnak/events", "application/json", fmt.Sprintf(`{"kind":"queue","system":"s","time":%d,"queue":"q0","cores":8,"wallTime":3600}`, testNow)); code != 200 {
				t.Fatalf("%q: the first queue: %d %q", flags, code, msg)
			}
			wants := []int{200, 200, 400} // live jobs 1, 2 and 3
			if l.flag == "max-queues" {
				wants = []int{200, 400} // queues q1 (the second) and q2
			}
			for i, want := range wants {
				code, msg := do(t, "POST", url+"/karnak/events", "application/json", l.events(i+1))
				if code != want || (want == 400 && !strings.Contains(msg, "at most 2 (set by the operator: qserve -"+l.flag+";")) {
					t.Errorf("%q: event %d: %d %q, want %d (a 400 naming -%s)", flags, i+1, code, msg, want, l.flag)
				}
			}
		}
	}
}

// Counts whose worst case no server holds (karnak.Config.Validate: every
// system full must fit in 1 TiB) are a usage error naming the three flags
// and what they would hold, before the service listens; until this
// change -max-live-jobs 1099511627776 was taken, as no limit at all.
// One count raised with the others lowered to fit starts.
func TestServeLimitsBounded(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-max-live-jobs", "1099511627776"}, "serve: -max-systems 256, -max-queues 64 and -max-live-jobs 1099511627776: every system full would hold"},
		{[]string{"-max-systems", "100000"}, "-max-systems 100000, -max-queues 64 and -max-live-jobs 262144: every system full would hold 39 TiB, more than 1 TiB"},
		{[]string{"-max-queues=9223372036854775807"}, "-max-queues 9223372036854775807"},
	} {
		var out, errb strings.Builder
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second) // a service that started stops
		err := run(ctx, append([]string{"serve", "-addr", "127.0.0.1:0", "-db", "", "-tokens", "off"}, c.args...), &out, &errb)
		cancel()
		if !errors.As(err, new(cli.UsageError)) || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "lower one") || strings.Contains(errb.String(), "listening") {
			t.Errorf("%q: %v (log %q), want a usage error with %q, before listening", c.args, err, errb.String(), c.want)
		}
	}
	for _, args := range [][]string{{"-max-systems", "2000", "-max-live-jobs", "100000"}} { // (the defaults start in every other test)
		var out, errb strings.Builder
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		err := run(ctx, append([]string{"serve", "-addr", "127.0.0.1:0", "-db", "", "-tokens", "off"}, args...), &out, &errb)
		cancel()
		if err != nil || !strings.Contains(errb.String(), "listening") {
			t.Errorf("%q: %v (log %q), want the service started", args, err, errb.String())
		}
	}
}

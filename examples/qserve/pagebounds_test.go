package main

import (
	"context"
	"errors"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/cli"
	"github.com/batchq/batchq/qbets/karnak"
)

// ksystems' and kjobs' -limit and kjobs' -offset outside what the
// service lists are usage errors, before any request (no server
// listens here): -limit 0 listed nothing, exit 0 ("none of the 3
// systems on this page", [] under -json), and -limit -1, 1001 and
// -offset -1 were the service's 400 naming its query, exit 1.
func TestClientPageBounds(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"ksystems", "-limit", "0"}, "-limit 0: want 1 to 1000"},
		{[]string{"ksystems", "-json", "-limit", "-1"}, "-limit -1: want 1 to 1000"},
		{[]string{"ksystems", "-limit", "1001"}, "-limit 1001: want 1 to 1000"},
		{[]string{"kjobs", "-limit", "0", "s"}, "-limit 0: want 1 to 1000"},
		{[]string{"kjobs", "-offset", "-1", "s"}, "-offset -1: want ≥ 0"},
	} {
		var out, errb strings.Builder
		err := run(context.Background(), append([]string{c.args[0], "-server", "http://127.0.0.1:1"}, c.args[1:]...), &out, &errb)
		if !errors.As(err, new(cli.UsageError)) || !strings.Contains(err.Error(), c.want) || out.Len() != 0 {
			t.Errorf("%q: %v (stdout %q), want a usage error with %q", c.args, err, out.String(), c.want)
		}
	}
}

// kjobs -json on a page that leaves waiting jobs out says on stderr, as
// ksystems -json does (TestKsystemsJSONPages), the whole list's length
// and the flags of the next page: it printed the first 1,000 jobs alone,
// a script unable to tell them from the whole queue.
func TestKjobsJSONPages(t *testing.T) {
	s := newService(t, nil, karnak.Config{})
	evs := []karnak.Event{{Kind: "queue", System: "a", Time: testNow - 10, Queue: "q", Cores: 8, WallTime: 3600}}
	for j := int64(1); j <= 3; j++ {
		evs = append(evs, karnak.Event{Kind: "submit", System: "a", Job: j, Time: testNow - 10 + j, Queue: "q", Cores: 1})
	}
	if err := s.Ingest(evs); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	for _, c := range []struct {
		args []string
		hint string
	}{
		{[]string{"-json"}, ""},
		{[]string{"-json", "-limit", "2"}, "kjobs: total 3; next: -after "},
		{[]string{"-format", "xml", "-limit", "1"}, "kjobs: total 3; next: -after "},
	} {
		var out, errb strings.Builder
		if err := run(context.Background(), append(append([]string{"kjobs", "-server", srv.URL}, c.args...), "a"), &out, &errb); err != nil {
			t.Fatalf("%q: %v\n%s", c.args, err, errb.String())
		}
		if hint := errb.String(); c.hint == "" && hint != "" || c.hint != "" && !strings.HasPrefix(hint, c.hint) {
			t.Errorf("%q: stderr %q, want %q", c.args, hint, c.hint)
		}
	}
}

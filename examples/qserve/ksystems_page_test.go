package main

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/batchq/batchq/qbets/karnak"
)

// ksystems pages the list of systems as the service does (-after,
// -before, -limit), and refuses -after with -before before asking.
func TestKsystemsPages(t *testing.T) {
	s := newService(t, nil, karnak.Config{})
	var evs []karnak.Event
	for _, name := range []string{"d", "b", "a", "c"} {
		evs = append(evs, karnak.Event{Kind: "queue", System: name, Time: testNow, Queue: "q", Cores: 8, WallTime: 3600})
	}
	if err := s.Ingest(evs); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	for _, c := range []struct {
		args  []string
		names string // the first field of each line but the header and the last
		last  string
	}{
		{nil, "a b c d", "d"}, // the whole list: no line about pages
		{[]string{"-limit", "2"}, "a b", "systems 1–2 of the 4, by name; next: ?after=b&limit=2"},
		{[]string{"-after", "b", "-limit", "1"}, "c", "systems 3–3 of the 4, by name; next: ?after=c&limit=1; previous: ?before=c&limit=1"},
		{[]string{"-before", "c", "-limit", "1"}, "b", "systems 2–2 of the 4, by name; next: ?after=b&limit=1; previous: ?before=b&limit=1"},
	} {
		var out, errb strings.Builder
		if err := run(context.Background(), append([]string{"ksystems", "-server", srv.URL}, c.args...), &out, &errb); err != nil {
			t.Errorf("%v: %v\n%s", c.args, err, errb.String())
			continue
		}
		lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
		var names []string
		for _, l := range lines[1:] {
			names = append(names, strings.Fields(l)[0])
		}
		last := lines[len(lines)-1]
		if c.last == "d" {
			last = names[len(names)-1]
		} else {
			names = names[:len(names)-1]
		}
		if strings.Join(names, " ") != c.names || last != c.last {
			t.Errorf("%v: systems %q and last line %q, want %q and %q", c.args, names, last, c.names, c.last)
		}
	}
	var out, errb strings.Builder
	if err := run(context.Background(), []string{"ksystems", "-server", srv.URL, "-after", "a", "-before", "c"}, &out, &errb); err == nil || !strings.Contains(err.Error(), "-after and -before: choose one") {
		t.Errorf("-after with -before: %v", err)
	}
}

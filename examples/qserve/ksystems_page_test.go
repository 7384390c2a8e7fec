package main

import (
	"context"
	"encoding/json"
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

// ksystems -json (and -format xml) prints the service's representation
// as it is, so a script reading its array keeps working, and, when the
// list has more than the page, says on stderr what a script needs to
// read the rest: the whole list's length and the flags of the next and
// previous pages. It said nothing: a script could not tell a full page
// from the whole list. Following the next pages' flags from the first
// page reads every system once; a page holding the whole list prints
// nothing on stderr, as before.
func TestKsystemsJSONPages(t *testing.T) {
	s := newService(t, nil, karnak.Config{})
	var evs []karnak.Event
	for _, name := range []string{"d", "b", "a", "c", "e"} {
		evs = append(evs, karnak.Event{Kind: "queue", System: name, Time: testNow, Queue: "q", Cores: 8, WallTime: 3600})
	}
	if err := s.Ingest(evs); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	ksystems := func(args ...string) (string, string) {
		t.Helper()
		var out, errb strings.Builder
		if err := run(context.Background(), append([]string{"ksystems", "-server", srv.URL}, args...), &out, &errb); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, errb.String())
		}
		return out.String(), errb.String()
	}
	for _, c := range []struct {
		args       []string
		path, hint string
	}{
		{[]string{"-json"}, "/karnak/system/status.json?limit=1000", ""},
		{[]string{"-json", "-limit", "2"}, "/karnak/system/status.json?limit=2", "ksystems: total 5; next: -after b -limit 2\n"},
		{[]string{"-limit", "2", "-after", "b", "-json"}, "/karnak/system/status.json?after=b&limit=2", "ksystems: total 5; next: -after d -limit 2; previous: -before c -limit 2\n"},
		{[]string{"-format", "xml", "-before", "c", "-limit", "2"}, "/karnak/system/status.xml?before=c&limit=2", "ksystems: total 5; next: -after b -limit 2\n"},
		{[]string{"-json", "-after", "e", "-limit", "2"}, "/karnak/system/status.json?after=e&limit=2", "ksystems: total 5; previous: -after c -limit 2\n"},
	} {
		out, hint := ksystems(c.args...)
		_, body := do(t, "GET", srv.URL+c.path, "", "")
		if out != body || hint != c.hint {
			t.Errorf("%q: stdout %q, stderr %q; want the service's %q and %q", c.args, out, hint, body, c.hint)
		}
	}
	// A script pages by the hint.
	var names []string
	args := []string{"-json", "-limit", "2"}
	for range 5 {
		out, hint := ksystems(args...)
		var page []karnak.SystemStatus
		if err := json.Unmarshal([]byte(out), &page); err != nil {
			t.Fatal(err)
		}
		for _, st := range page {
			names = append(names, st.System)
		}
		_, next, ok := strings.Cut(strings.TrimSpace(hint), "; next: ")
		if !ok {
			break
		}
		next, _, _ = strings.Cut(next, ";")
		args = append([]string{"-json"}, strings.Fields(next)...)
	}
	if strings.Join(names, " ") != "a b c d e" {
		t.Errorf("paged by the hint: %q, want a b c d e", names)
	}
}

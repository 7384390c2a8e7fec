package karnak

import (
	"fmt"
	"html/template"
	"net/http/httptest"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

// formService is a service of the systems sizes names: system i, named
// sys%04d, has sizes[i] queues q00, q01, … (MaxQueues and MaxSystems
// raised to fit).
func formService(t *testing.T, sizes []int) *Service {
	t.Helper()
	most := 1
	for _, n := range sizes {
		most = max(most, n)
	}
	s, err := NewServiceWith(nil, func() int64 { return testNow }, Config{Rate: -1, MaxSystems: len(sizes), MaxQueues: most})
	if err != nil {
		t.Fatal(err)
	}
	var evs []Event
	for i, n := range sizes {
		for q := range n {
			evs = append(evs, Event{Kind: "queue", System: fmt.Sprintf("sys%04d", i), Time: testNow, Queue: fmt.Sprintf("q%02d", q), Cores: 64, WallTime: 3600})
		}
	}
	for len(evs) > 0 {
		k := min(len(evs), maxEvents)
		if err := s.Ingest(evs[:k]); err != nil {
			t.Fatal(err)
		}
		evs = evs[k:]
	}
	return s
}

// The form's checkboxes are what they were before the form stopped
// visiting every system (refLocationChoices, the code before, kept here
// as the reference), with few systems and many, compact or not, with
// systems shown and locations asked for, known, unknown, beyond the
// bound and of systems not listed, and after a system is dropped (the
// service's count of queues follows).
func TestFormChoicesAsBefore(t *testing.T) {
	repeat := func(n, size int) []int {
		out := make([]int, n)
		for i := range out {
			out[i] = size
		}
		return out
	}
	for _, c := range []struct {
		name  string
		sizes []int
	}{
		{"3 systems", []int{2, 1, 3}},
		{"512 queues", repeat(8, 64)},
		{"40 systems of 20 queues", repeat(40, 20)},
		{"300 systems of 2 queues", repeat(300, 2)},
		{"a system of 600 queues", append([]int{3, 600}, repeat(20, 10)...)},
	} {
		s := formService(t, c.sizes)
		last := fmt.Sprintf("sys%04d", len(c.sizes)-1)
		for _, q := range []struct{ asked, show []string }{
			{},
			{show: []string{"sys0001"}},
			{show: []string{"sys0000", "sys0001", last, "nosys", "sys0002"}},
			{asked: []string{"q00@sys0000", "q01@" + last, "q99@sys0001", "q00@nosys", "bad"}},
			{asked: []string{"q00@sys0002", "q05@sys0001"}, show: []string{"sys0001", "sys0003", last}},
			{asked: []string{"q00@sys0003"}, show: []string{"sys0001", "sys0002", "sys0003", "sys0004", "sys0005", "sys0006", "sys0007", "sys0008", "sys0009", "sys0010", "sys0011", "sys0012"}},
		} {
			check := func(when string) {
				t.Helper()
				got, gotMore := s.locationChoices(q.asked, q.show)
				want, wantMore := s.refLocationChoices(q.asked, q.show)
				sum := 0
				for _, n := range s.systemNames() {
					sys, _ := s.lookup(n)
					sum += len(sys.queues)
				}
				if int(s.queueCount.Load()) != sum {
					t.Errorf("%s%s: the service counts %d queues, its systems have %d", c.name, when, s.queueCount.Load(), sum)
				}
				if !reflect.DeepEqual(got, want) || gotMore != wantMore {
					t.Errorf("%s%s, asked %q, show %q: the choices differ from before\ngot  %+v\n%s\nwant %+v\n%s", c.name, when, q.asked, q.show, got, gotMore, want, wantMore)
				}
			}
			check("")
			if len(c.sizes) > 3 {
				if err := s.Drop("sys0002"); err != nil {
					t.Fatal(err)
				}
				check(", sys0002 dropped")
				if err := s.Rewind("sys0001", testNow); err != nil {
					t.Fatal(err)
				}
				check(", sys0001 rewound")
				s = formService(t, c.sizes)
			}
		}
	}
}

// What a request of the form costs does not grow with the systems: at
// 5,000 systems of one queue (compact) it allocates about what it does
// at 1,000, with systems shown and locations asked for or without.
// locationChoices copied every name, looked every system up and built a
// list of all of them at every request: with refLocationChoices in its
// place this test measured 658,342 bytes a request at 5,000 systems and
// 321,216 at 1,000 (the first path), and 263,893 and 262,648 with the
// fix.
func TestFormCostBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("two services of thousands of systems")
	}
	small, big := manySystems(t, 1000), manySystems(t, 5000)
	alloc := func(s *Service, path string) uint64 {
		get := func() {
			w := httptest.NewRecorder()
			s.Handler().ServeHTTP(w, httptest.NewRequest("GET", path, nil))
			if w.Code != 200 {
				t.Fatalf("%s: %d %.300s", path, w.Code, w.Body)
			}
		}
		get() // (the templates parsed)
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		const runs = 20
		for range runs {
			get()
		}
		runtime.ReadMemStats(&m1)
		return (m1.TotalAlloc - m0.TotalAlloc) / runs
	}
	for _, q := range []string{"", "?sys=sys0100&sys=sys0900", "?cores=4&wallTime=01:00:00&loc=q%40sys0500&loc=q%40sys0999&sys=sys0300"} {
		path := "/karnak/waittime/predict.html" + q
		a, b := alloc(big, path), alloc(small, path)
		t.Logf("%s: %d bytes allocated at 5000 systems, %d at 1000", path, a, b)
		if a > b+b/4 {
			t.Errorf("%s: %d bytes allocated at 5000 systems, %d at 1000: want about the same", path, a, b)
		}
	}
}

// refLocationChoices is locationChoices as it was before the form stopped
// visiting every system (TestFormChoicesAsBefore compares them).
//
// locationChoices lists every queue of every system as a checkbox,
// checked when asked for; locations asked for that the service does not
// know come last, checked, so the user sees them and can uncheck them.
// Beyond formMaxChoices queues in all it is compact (formMaxChoices):
// only the queues of the systems of show (?sys=) and of the locations
// asked for are listed, as many systems as the bound takes, in name
// order, and the other systems are more, as checkboxes.
func (s *Service) refLocationChoices(asked, show []string) (out []locGroup, more template.HTML) {
	asked = asked[:min(len(asked), maxLocations)]
	want := map[string]bool{}
	for _, l := range asked {
		want[l] = true
	}
	type sysQueues struct {
		sys *system
		n   int // its queues
	}
	// The queues are counted first, and listed only for the systems
	// listed: a compact form builds no other system's list.
	names := s.systemNames()
	all := make([]sysQueues, 0, len(names))
	total := 0
	for _, name := range names {
		sys, err := s.lookup(name)
		if err != nil {
			continue
		}
		sys.mu.RLock()
		n := len(sys.queues)
		sys.mu.RUnlock()
		all = append(all, sysQueues{sys, n})
		total += n
	}
	compact := total > formMaxChoices
	open, checked := map[string]bool{}, map[string]bool{}
	if compact {
		for _, n := range show[:min(len(show), maxParams)] {
			open[n], checked[n] = true, true
		}
		for _, l := range asked {
			if _, sys, ok := strings.Cut(l, "@"); ok {
				open[sys] = true
			}
		}
	}
	n, listed := 0, 0
	next := func(v string) locChoice {
		n++
		c := locChoice{ID: "loc-" + itoa(n), Value: v, Checked: want[v]}
		delete(want, v)
		return c
	}
	var rest []string
	cutQueues, cutSys := 0, ""
	for _, sq := range all {
		name := sq.sys.name
		// (The first system asked for is listed whatever its queues, so
		// that a system of more than formMaxChoices (Config.MaxQueues)
		// can still be asked about: its queues asked for, and the first
		// others up to the bound.)
		if compact && (!open[name] || listed > 0 && listed+sq.n > formMaxChoices) {
			rest = append(rest, name)
			continue
		}
		_, qs := s.statusOf(sq.sys)
		if compact && len(qs) > formMaxChoices {
			room := formMaxChoices
			for _, q := range qs {
				if want[q.Queue+"@"+name] {
					room--
				}
			}
			kept := qs[:0]
			for _, q := range qs {
				if asked := want[q.Queue+"@"+name]; asked || room > 0 {
					if !asked {
						room--
					}
					kept = append(kept, q)
				}
			}
			cutQueues, cutSys = len(qs)-len(kept), name
			qs = kept
		}
		listed += len(qs)
		g := locGroup{System: name, shown: compact}
		for _, q := range qs {
			g.Queues = append(g.Queues, next(q.Queue+"@"+name))
		}
		if len(g.Queues) > 0 {
			g.HTML = groupHTML(&g)
		}
		out = append(out, g)
	}
	if len(want) > 0 {
		// Those of a system not listed (a compact form's bound) are
		// not unknown: they are said apart, checked all the same.
		unlisted := map[string]bool{}
		for _, n := range rest {
			unlisted[n] = true
		}
		other := locGroup{System: fmt.Sprintf("chosen, of systems not listed above (at most %d queues are)", formMaxChoices)}
		unknown := locGroup{System: "not known to the service"}
		for _, l := range asked {
			if want[l] {
				if _, sys, _ := strings.Cut(l, "@"); unlisted[sys] {
					other.Queues = append(other.Queues, next(l))
				} else {
					unknown.Queues = append(unknown.Queues, next(l))
				}
			}
		}
		for _, g := range []locGroup{other, unknown} {
			if len(g.Queues) > 0 {
				out = append(out, g)
			}
		}
	}
	if compact {
		more = refMoreHTML(rest, checked, total, cutQueues, cutSys)
	}
	return out, more
}

// moreHTML is a compact form's systems whose queues it does not list,
// as checkboxes to show them (sys), checked when checked (?sys=) and
// left out by the bound, so that the user sees which were not shown: at
// most formMaxSystems unchecked, the rest counted. cut queues of the
// system cutSys were left out by formMaxChoices.
func refMoreHTML(systems []string, checked map[string]bool, total, cut int, cutSys string) template.HTML {
	var b strings.Builder
	b.WriteString(`<div class="system more">` + "\n")
	fmt.Fprintf(&b, `<p class="sysname">The service knows %d queues, too many to list at once: check systems and press Show queues to choose among theirs (at most %d queues are listed).</p>`+"\n", total, formMaxChoices)
	if cut > 0 {
		fmt.Fprintf(&b, `<p class="note">%d queues of %s are not listed (at most %d are): a queue's page links here with it chosen.</p>`+"\n", cut, template.HTMLEscapeString(cutSys), formMaxChoices)
	}
	unchecked, left := 0, 0
	for _, name := range systems {
		if !checked[name] {
			if unchecked == formMaxSystems {
				left++
				continue
			}
			unchecked++
		}
		v := template.HTMLEscapeString(name)
		b.WriteString(`<label class="check"><input type="checkbox" name="sys" value="`)
		b.WriteString(v)
		if checked[name] {
			b.WriteString(`" checked="checked`)
		}
		b.WriteString(`"/> `)
		b.WriteString(v)
		b.WriteString("</label>\n")
	}
	if left > 0 {
		fmt.Fprintf(&b, `<p class="note">%d more systems are not listed here (at most %d are, by name): a system's page, from the list of systems, links here with its queues.</p>`+"\n", left, formMaxSystems)
	}
	b.WriteString("</div>\n")
	return template.HTML(b.String()) //nolint:gosec // every value in it is escaped
}

package karnak

import (
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
)

// A batch id is its writer's within the systems its batch touches: a
// token of system a sending an id that b's feed used (or will use) gets
// its own batch stored, not b's 409, and b's retries and conflicts are
// as before, also after a restart. With one namespace for all, a token
// of one system could claim the ids another feed would send (its batch
// then a 409, which slurmfeed drops for good) and learn which ids the
// others had sent.
func TestBatchIDsPerSystem(t *testing.T) {
	ta := Token{Name: "a", Secret: "token-of-a-0123456789", Systems: []string{"a"}}
	tb := Token{Name: "b", Secret: "token-of-b-0123456789", Systems: []string{"b"}}
	cfg := Config{Rate: -1, Tokens: []Token{ta, tb}}
	st := &MemStore{}
	s, err := NewServiceWith(st, func() int64 { return testNow }, cfg)
	if err != nil {
		t.Fatal(err)
	}
	post := func(s *Service, tk Token, body string) (int, string) {
		r := httptest.NewRequest("POST", "/karnak/events", strings.NewReader(body))
		r.Header.Set("Authorization", "Bearer "+tk.Secret)
		r.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		s.Handler().ServeHTTP(w, r)
		return w.Code, w.Body.String()
	}
	batch := func(sys string, job int) string {
		return fmt.Sprintf(`{"batch":"feed/1","events":[{"kind":"queue","system":%[1]q,"queue":"q","time":%[2]d,"cores":8,"wallTime":3600},`+
			`{"kind":"submit","system":%[1]q,"job":%[3]d,"time":%[2]d,"queue":"q","cores":1,"wallTime":60}]}`, sys, testNow-60, job)
	}
	if code, body := post(s, tb, batch("b", 1)); code != 200 {
		t.Fatalf("b's batch: %d %q", code, body)
	}
	for _, svc := range []*Service{s, nil} {
		if svc == nil { // the same after a restart
			if svc, err = NewServiceWith(st, func() int64 { return testNow }, cfg); err != nil {
				t.Fatal(err)
			}
		}
		n := st.Len()
		code, body := post(svc, tb, batch("b", 1))
		if code != 200 || st.Len() != n {
			t.Errorf("b's retry: %d %q, %d stored, want 200 and nothing stored", code, body, st.Len()-n)
		}
		if code, body := post(svc, tb, batch("b", 2)); code != 409 {
			t.Errorf("b's id with other events: %d %q, want 409", code, body)
		}
		if svc == s {
			if code, body := post(svc, ta, batch("a", 1)); code != 200 || st.Len() != n+2 {
				t.Errorf("a's batch of b's id: %d %q, want 200, stored", code, body)
			}
			continue
		}
		if code, body := post(svc, ta, batch("a", 1)); code != 200 || st.Len() != n {
			t.Errorf("a's retry: %d %q, want 200 and nothing stored", code, body)
		}
		if code, body := post(svc, ta, batch("a", 3)); code != 409 {
			t.Errorf("a's id with other events: %d %q, want 409", code, body)
		}
	}
}

// When the service remembers as many batches as it may, the system
// charged with the most loses its oldest: one writer's flood of new ids
// evicted every other system's with one list for all, and a feed's retry
// after a lost acknowledgement was then stored again.
func TestBatchIDsEvictFlooder(t *testing.T) {
	ta := Token{Name: "a", Secret: "token-of-a-0123456789", Systems: []string{"a"}}
	tb := Token{Name: "b", Secret: "token-of-b-0123456789", Systems: []string{"b"}}
	st := &MemStore{}
	s, err := NewServiceWith(st, func() int64 { return testNow }, Config{Rate: -1, Tokens: []Token{ta, tb}})
	if err != nil {
		t.Fatal(err)
	}
	const n = 16
	s.batches.init(n)
	post := func(tk Token, body string) (int, string) {
		r := httptest.NewRequest("POST", "/karnak/events", strings.NewReader(body))
		r.Header.Set("Authorization", "Bearer "+tk.Secret)
		r.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		s.Handler().ServeHTTP(w, r)
		return w.Code, w.Body.String()
	}
	batch := func(sys string, job int) string {
		return fmt.Sprintf(`{"batch":"%[1]s/%[3]d","events":[{"kind":"submit","system":%[1]q,"job":%[3]d,"time":%[2]d,"queue":"q","cores":1,"wallTime":60}]}`,
			sys, testNow-60, job)
	}
	for _, sys := range []string{"a", "b"} {
		tk := map[string]Token{"a": ta, "b": tb}[sys]
		q := fmt.Sprintf(`{"kind":"queue","system":%q,"queue":"q","time":%d,"cores":8,"wallTime":3600}`, sys, testNow-60)
		if code, body := post(tk, q); code != 200 {
			t.Fatalf("%s's queue: %d %q", sys, code, body)
		}
	}
	for job := 1; job <= 4; job++ {
		if code, body := post(tb, batch("b", job)); code != 200 {
			t.Fatalf("b's batch %d: %d %q", job, code, body)
		}
	}
	for job := 1; job <= 10*n; job++ {
		if code, body := post(ta, batch("a", job)); code != 200 {
			t.Fatalf("a's batch %d: %d %q", job, code, body)
		}
	}
	if len(s.batches.m) != n { // (each id once)
		t.Errorf("%d batches remembered, want %d", len(s.batches.m), n)
	}
	for job := 1; job <= 4; job++ {
		m := st.Len()
		if code, body := post(tb, batch("b", job)); code != 200 || st.Len() != m {
			t.Errorf("b's retry of batch %d after a's flood: %d %q, %d stored, want 200 and nothing stored", job, code, body, st.Len()-m)
		}
	}
	// a's last ids are remembered (n - 4 of them), its first are not.
	m := st.Len()
	if code, body := post(ta, batch("a", 10*n)); code != 200 || st.Len() != m {
		t.Errorf("a's retry of its last batch: %d %q, %d stored, want 200 and nothing stored", code, body, st.Len()-m)
	}
	if code, _ := post(ta, batch("a", 1)); code == 200 && st.Len() == m {
		t.Errorf("a's first batch still remembered after %d others", 10*n)
	}
}

// Among systems tied for the most remembered batches, the first by name
// loses its oldest id, whatever the map's order: the same ids are
// forgotten on every run and after a restart.
func TestBatchLogEvictsByName(t *testing.T) {
	for range 20 {
		var b batchLog
		b.init(4)
		b.add("c1", "d", "c")
		b.add("a1", "d", "a")
		b.add("c2", "d", "c")
		b.add("a2", "d", "a")
		b.add("b1", "d", "b") // full: a and c hold 2 each, a goes first
		if _, ok := b.m["a1"]; ok {
			t.Fatalf("a1 kept; want the tie (a, c) broken by name, a's oldest forgotten")
		}
		for _, id := range []string{"c1", "c2", "b1", "a2"} {
			if _, ok := b.m[id]; !ok {
				t.Fatalf("%s forgotten; want only a1", id)
			}
		}
	}
}

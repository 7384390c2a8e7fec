package karnak

import (
	"net/http"
	"strings"
	"testing"
)

// An operator's Rewind can leave a client holding a cursor the service
// itself gave, now past the system's last event: the 400 tells the client
// to start again from the first page, not to follow the Link it followed.
func TestWaitingCursorAfterRewind(t *testing.T) {
	s, err := NewServiceWith(&MemStore{}, func() int64 { return testNow }, Config{Rate: -1})
	if err != nil {
		t.Fatal(err)
	}
	evs := []Event{{Kind: "queue", System: "k", Time: testNow - 3600, Queue: "q", Cores: 64, WallTime: 86400}}
	for id := int64(2); id <= 20; id += 2 {
		evs = append(evs, Event{Kind: "submit", System: "k", Job: id, Time: testNow - 1000 + id, Queue: "q", Cores: 1, WallTime: 3600})
	}
	if err := s.Ingest(evs); err != nil {
		t.Fatal(err)
	}
	h := s.Handler()
	next := linkNext(getPage(t, h, "/karnak/system/k/job/waiting.json?limit=8"))
	if next == "" {
		t.Fatal("no next page after 8 of 10 jobs")
	}
	if err := s.Rewind("k", testNow-1000+10); err != nil {
		t.Fatal(err)
	}
	w := getPage(t, h, next)
	if body := w.Body.String(); w.Code != http.StatusBadRequest || !strings.Contains(body, "start again from the first page") || strings.Contains(body, "follow the Link") {
		t.Errorf("the Link's page after a rewind: %d %q", w.Code, body)
	}
}

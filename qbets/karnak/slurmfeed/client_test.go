package slurmfeed

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/batchq/batchq/qbets/karnak"
)

func TestClient(t *testing.T) {
	tp := newTap(t, func() int64 { return t0 + 100 })
	srv := httptest.NewServer(tp.svc.Handler())
	defer srv.Close()
	cl := &Client{URL: srv.URL + "/", HTTP: srv.Client()}
	evs := []karnak.Event{
		{Kind: "queue", System: "c1", Time: t0, Queue: "short", Cores: 8, WallTime: 120},
		{Kind: "submit", System: "c1", Job: 7, Time: t0 + 1, Queue: "short", Cores: 2, WallTime: 60},
	}
	ack, err := cl.IngestBatch("b1", evs)
	if err != nil || ack.Events != 2 || ack.Batch != "b1" {
		t.Fatalf("ack %+v, %v", ack, err)
	}
	if again, err := cl.IngestBatch("b1", evs); err != nil || again != ack {
		t.Fatalf("a retry: %+v, %v", again, err)
	}
	p, err := cl.PredictJob("c1", 7, 50, 90, 90)
	if err != nil || p.Job == nil || *p.Job != 7 || p.Queue != "short" {
		t.Fatalf("prediction %+v, %v", p, err)
	}
	// Another batch under the same id is a conflict: rejected, not retried.
	_, err = cl.IngestBatch("b1", evs[:1])
	var rej *karnak.Error
	if !errors.As(err, &rej) || rej.Code != 409 || rej.Temporary() || !rejected(err) {
		t.Fatalf("conflict: %v", err)
	}
	if _, err := (&Client{URL: "http://127.0.0.1:1"}).IngestBatch("b2", evs); err == nil || rejected(err) {
		t.Fatalf("no service: %v (want a retryable error)", err)
	}
}

// A 408 (the service's answer to a body not received within its read
// timeout) is retried, the batch kept: the service says "send it again".
func TestClient408Retried(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "body: not received in time (the server's read timeout): send it again", http.StatusRequestTimeout)
	}))
	defer srv.Close()
	_, err := (&Client{URL: srv.URL, HTTP: srv.Client()}).IngestBatch("b", []karnak.Event{{Kind: "queue", System: "c1", Time: t0, Queue: "q", Cores: 8, WallTime: 120}})
	var ke *karnak.Error
	if !errors.As(err, &ke) || ke.Code != http.StatusRequestTimeout || !ke.Temporary() || rejected(err) {
		t.Fatalf("a 408: %v, want a karnak.Error 408 that is retried (not rejected)", err)
	}
}

// A prediction's error is JSON (the service answers a .json resource's
// errors as JSON): the Client's Error carries its message, not the JSON
// around it.
func TestClientJSONErrorMessage(t *testing.T) {
	tp := newTap(t, func() int64 { return t0 + 100 })
	srv := httptest.NewServer(tp.svc.Handler())
	defer srv.Close()
	_, err := (&Client{URL: srv.URL, HTTP: srv.Client()}).PredictJob("nosuch", 7, 50, 90, 0)
	var ke *karnak.Error
	if !errors.As(err, &ke) || ke.Code != http.StatusNotFound || strings.Contains(ke.Message, `{"error"`) || !strings.Contains(ke.Message, `404 Not Found: system: "nosuch"`) {
		t.Fatalf("a prediction for an unknown system: %v, want a 404 whose message is the service's", err)
	}
}

package karnak_test

import (
	"context"
	"fmt"
	"io"
	"net/http/httptest"
	"strings"

	"github.com/batchq/batchq/qbets/karnak"
)

// A service in memory, fed a few jobs, asked over HTTP how long a 4-core
// job would wait.
func Example() {
	now := int64(1_700_000_000)
	svc, err := karnak.New(nil, karnak.Config{Now: func() int64 { return now }})
	if err != nil {
		panic(err)
	}
	if err := svc.Load(context.Background()); err != nil {
		panic(err)
	}
	evs := []karnak.Event{{Kind: "queue", System: "s1", Time: now - 7200, Queue: "normal", Cores: 64, WallTime: 86400}}
	for i := int64(0); i < 20; i++ {
		at := now - 7000 + 300*i
		evs = append(evs,
			karnak.Event{Kind: "submit", System: "s1", Job: i, Time: at, Queue: "normal", Cores: 4, WallTime: 3600},
			karnak.Event{Kind: "start", System: "s1", Job: i, Time: at + 60 + 10*i})
	}
	ack, err := svc.IngestBatch("site-a/1", evs)
	fmt.Println(ack.Events, err)
	again, err := svc.IngestBatch("site-a/1", evs) // a retry: the same ack, nothing stored twice
	fmt.Println(again == ack, err)

	srv := httptest.NewServer(svc.Handler())
	defer srv.Close()
	resp, err := srv.Client().Post(srv.URL+"/karnak/waittime/prediction/", "text/plain",
		strings.NewReader("processors 4\nrequestedWallTime 01:00:00\nlocation s1 normal\n"))
	if err != nil {
		panic(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	fmt.Print(strings.SplitAfter(string(body), "\n")[0])
	// Output:
	// 41 <nil>
	// true <nil>
	// normal@s1: 4 cores, 01:00:00 requested, at 2023-11-14 22:13:20
}

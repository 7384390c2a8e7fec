package karnak_test

import (
	"context"
	"errors"
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
	evs := []karnak.Event{{Kind: karnak.KindQueue, System: "s1", Time: now - 7200, Queue: "normal", Cores: 64, WallTime: 86400}}
	for i := int64(0); i < 20; i++ {
		at := now - 7000 + 300*i
		evs = append(evs,
			karnak.Event{Kind: karnak.KindSubmit, System: "s1", Job: i, Time: at, Queue: "normal", Cores: 4, WallTime: 3600},
			karnak.Event{Kind: karnak.KindStart, System: "s1", Job: i, Time: at + 60 + 10*i})
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

// A refusal is a *karnak.Error, from a Service in the process as from
// slurmfeed.Client over HTTP: Code is the HTTP status, and Temporary
// says whether sending the same request again may succeed.
func ExampleError() {
	svc, err := karnak.New(nil, karnak.Config{Now: func() int64 { return 1_700_000_000 }})
	if err != nil {
		panic(err)
	}
	queue := karnak.Event{Kind: karnak.KindQueue, System: "s1", Time: 1_700_000_000, Queue: "normal", Cores: 64, WallTime: 86400}
	for _, step := range []string{"before Load", "a job in an undeclared queue", "a queue"} {
		var evs []karnak.Event
		switch step {
		case "before Load":
			evs = []karnak.Event{queue}
		case "a job in an undeclared queue":
			if err := svc.Load(context.Background()); err != nil {
				panic(err)
			}
			evs = []karnak.Event{{Kind: karnak.KindSubmit, System: "s1", Job: 1, Time: 1_700_000_000, Queue: "debug", Cores: 1}}
		default:
			evs = []karnak.Event{queue}
		}
		_, err := svc.IngestBatch("", evs)
		var ke *karnak.Error
		if errors.As(err, &ke) {
			fmt.Printf("%s: %d, temporary %v\n", step, ke.Code, ke.Temporary())
		} else {
			fmt.Printf("%s: stored\n", step)
		}
	}
	// Output:
	// before Load: 503, temporary true
	// a job in an undeclared queue: 400, temporary false
	// a queue: stored
}

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestQueueNamesLinear: a log whose jobs name 10^5 queues under a header
// of 10^5 "Queue:" lines. Each queue's name was looked up over every
// header line, 10^10 field splits: the command ran for hours. The names
// are now read once; the run takes about a second here, and the test
// gives it a minute. The first line naming a queue stands, and only the
// number's plain decimal form names it.
func TestQueueNamesLinear(t *testing.T) {
	const n = 100000
	var log strings.Builder
	log.WriteString("; MaxProcs: 10\n; Queue: 07 leading-zero\n; Queue: 3 first\n; Queue: 3 second\n")
	for q := 10; q < n; q++ {
		fmt.Fprintf(&log, "; Queue: %d q%d\n", q, q)
	}
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&log, "%d %d 0 100 1 -1 -1 1 200 -1 1 1 1 1 %d -1 -1 -1\n", i, i, i)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	done := make(chan int, 1)
	var out, errs bytes.Buffer
	go func() { done <- run(ctx, []string{"-", "-json"}, strings.NewReader(log.String()), &out, &errs) }()
	select {
	case code := <-done:
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs.String())
		}
	case <-time.After(time.Minute):
		t.Fatal("swfstat ran past a minute on 10^5 queues and header lines")
	}
	var s summaryJSON
	if err := json.Unmarshal(out.Bytes(), &s); err != nil {
		t.Fatal(err)
	}
	names := map[int64]string{}
	for _, q := range s.Queues {
		names[q.Queue] = q.Name
	}
	if len(s.Queues) != n || names[3] != "first" || names[7] != "" || names[12345] != "q12345" {
		t.Errorf("%d queues; 3 %q, 7 %q, 12345 %q", len(s.Queues), names[3], names[7], names[12345])
	}
}

package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/batchq/batchq/examples/internal/cli"
)

// TestMain lets the test binary run as the qserve command, so the restart
// test can kill a real server process.
func TestMain(m *testing.M) {
	if os.Getenv("QSERVE_CHILD") == "1" {
		os.Args = append(os.Args[:1], strings.Fields(os.Getenv("QSERVE_ARGS"))...)
		cli.Main(command)
	}
	os.Exit(m.Run())
}

// startChild runs "qserve serve" in a subprocess on a free loopback port
// with more flags and returns its base URL once it listens.
func startChild(t *testing.T, db string, flags ...string) (*exec.Cmd, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "QSERVE_CHILD=1",
		fmt.Sprintf("QSERVE_ARGS=serve -addr 127.0.0.1:0 -db %s -now %d %s", db, testNow, strings.Join(flags, " ")))
	errs, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() }) //nolint:errcheck // already dead is fine
	// A child that exits before it listens (a flag it does not know, a
	// usage error) fails the test at once with what it wrote, rather
	// than after the 60 s wait.
	found, exited := make(chan string, 1), make(chan string, 1)
	go func() {
		var log strings.Builder
		sc := bufio.NewScanner(errs)
		for sc.Scan() {
			if _, url, ok := strings.Cut(sc.Text(), "listening on "); ok {
				select {
				case found <- strings.TrimSuffix(url, "/karnak/"):
				default:
				}
			}
			if log.Len() < 4096 {
				log.WriteString(sc.Text() + "\n")
			}
		}
		exited <- log.String()
	}()
	select {
	case url := <-found:
		waitReady(t, url)
		return cmd, url
	case log := <-exited:
		select {
		case url := <-found: // listened, then stopped: as before
			waitReady(t, url)
			return cmd, url
		default:
		}
		t.Fatalf("child server (%s) exited before listening:\n%s", strings.Join(flags, " "), log)
	case <-time.After(60 * time.Second):
		t.Fatal("child server did not start")
	}
	return nil, ""
}

// waitReady polls the server until it no longer answers 503 (the state
// is being rebuilt; it listens at once).
func waitReady(t *testing.T, url string) {
	t.Helper()
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		resp, err := http.Get(url + "/karnak/system/status.txt")
		if err != nil {
			continue
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusServiceUnavailable {
			return
		}
	}
	t.Fatal("the server answered 503 for 60 s")
}

// Events are acknowledged only once stored: ingest, kill the server with
// SIGKILL (no shutdown, no close), restart on the same database, and get
// byte-identical predictions and statistics.
func TestRestartSamePredictions(t *testing.T) {
	if testing.Short() {
		t.Skip("starts subprocesses")
	}
	db := filepath.Join(t.TempDir(), "q.db")
	cmd, url := startChild(t, db)
	token := feedToken(t, db) // made at the first start
	evs := testEvents()
	for i := 0; i < len(evs); i += 50 { // several acknowledged batches
		b, _ := json.Marshal(evs[i:min(i+50, len(evs))])
		if code, body := doAuth(t, "POST", url+"/karnak/events", "application/json", token, string(b)); code != 200 {
			t.Fatalf("ingest: %d %s", code, body)
		}
	}
	queries := []struct{ method, path, ctype, body string }{
		{"GET", "/karnak/system/s1/job/1002/prediction/waittime.json?within=00:10:00", "", ""},
		{"GET", "/karnak/system/s1/job/1003/prediction/starttime.json?confidence=80", "", ""},
		{"POST", "/karnak/waittime/prediction/?format=json", "application/json", `{"cores": 4, "wallTime": 3600, "within": 600, "locations": ["normal@s1", "debug@s1"]}`},
		{"GET", "/karnak/system/s1/queue/all_jobs/summary.json", "", ""},
		{"GET", "/karnak/system/s1/job/waiting.json", "", ""},
	}
	answers := func(url string) []string {
		var out []string
		for _, q := range queries {
			code, body := do(t, q.method, url+q.path, q.ctype, q.body)
			if code != 200 {
				t.Fatalf("%s: %d %s", q.path, code, body)
			}
			out = append(out, body)
		}
		return out
	}
	before := answers(url)
	if !strings.Contains(before[0], `"qbets":{`) || !strings.Contains(before[0], `"ibl":{`) {
		t.Fatalf("prediction lacks a part: %s", before[0])
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait() //nolint:errcheck // killed
	_, url = startChild(t, db)
	after := answers(url)
	for i := range before {
		if before[i] != after[i] {
			t.Errorf("%s differs after restart:\nbefore %s\nafter  %s", queries[i].path, before[i], after[i])
		}
	}
}

// SIGTERM shuts the server down gracefully: it stops listening, finishes
// requests in flight and exits 0; what it acknowledged is on disk.
func TestGracefulShutdown(t *testing.T) {
	if testing.Short() {
		t.Skip("starts subprocesses")
	}
	db := filepath.Join(t.TempDir(), "q.db")
	cmd, url := startChild(t, db, "-grace", "1s")
	token := feedToken(t, db)
	b, _ := json.Marshal(testEvents()[:10])
	if code, body := doAuth(t, "POST", url+"/karnak/events", "application/json", token, string(b)); code != 200 {
		t.Fatalf("ingest: %d %s", code, body)
	}
	// A request in flight that will not finish within the grace period:
	// a client that sent its headers and trickles its body. Before this
	// change the shutdown then failed and the process exited 2.
	conn, err := net.Dial("tcp", strings.TrimPrefix(url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprint(conn, "POST /karnak/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "+token+"\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n[{")
	time.Sleep(100 * time.Millisecond) // the request is being read
	t0 := time.Now()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("exit after SIGTERM with a request in flight: %v", err)
	}
	if d := time.Since(t0); d > 10*time.Second {
		t.Errorf("shut down in %v with -grace 1s", d)
	}
	st, err := OpenStore(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if n, err := st.Rows(); err != nil || n != 10 {
		t.Fatalf("stored %d events (%v), want 10", n, err)
	}
}

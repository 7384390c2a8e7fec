package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/batchq/batchq/examples/internal/connlimit"
	"github.com/batchq/batchq/qbets/karnak/slurmfeed"
)

// -json's keys are snake_case, as every other command's: they were the
// Report's camelCase ("meanAbsLog10", "nWithin2", "notDue"). The mirror
// keeps every field of the Report (a field added there fails here).
func TestJSONSnakeCase(t *testing.T) {
	if a, b := reflect.TypeFor[slurmfeed.Report]().NumField(), reflect.TypeFor[reportJSON]().NumField(); a != b {
		t.Errorf("slurmfeed.Report has %d fields, reportJSON %d", a, b)
	}
	var out bytes.Buffer
	if err := run(context.Background(), []string{"-poll", "2s", "-replay", recordingPath, "-json"}, &out, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	if !strings.Contains(s, `"mean_abs_log10"`) || !strings.Contains(s, `"n_within2"`) {
		t.Errorf("-json lacks mean_abs_log10, n_within2:\n%.400s", s)
	}
	checkSnakeCase(t, out.Bytes())
}

// /slurmfeed/report.json writes the keys -json writes: it wrote the
// Report's camelCase while -json wrote snake_case (the handler went
// untested: -listen's test needs a live Slurm).
func TestReportEndpointSnakeCase(t *testing.T) {
	r := slurmfeed.Report{System: "s", NotDue: map[string]int64{"within the delay": 1}, LastError: "x",
		Methods: []slurmfeed.Method{{Name: "qbets", MeanAbsLog10: 0.5, NWithin2: 1}}}
	rec := httptest.NewRecorder()
	reportHandler(func() slurmfeed.Report { return r })(rec, httptest.NewRequest("GET", "/slurmfeed/report.json", nil))
	s := rec.Body.String()
	for _, k := range []string{`"not_due"`, `"last_error"`, `"mean_abs_log10"`, `"n_within2"`} {
		if !strings.Contains(s, k) {
			t.Errorf("report.json lacks %s:\n%s", k, s)
		}
	}
	checkSnakeCase(t, rec.Body.Bytes())
}

// checkSnakeCase fails t for a key of the JSON object data in other than
// lower case (the keys of the maps keyed by data aside).
func checkSnakeCase(t *testing.T, data []byte) {
	t.Helper()
	var keys map[string]any
	if err := json.Unmarshal(data, &keys); err != nil {
		t.Fatal(err)
	}
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				if strings.ToLower(k) != k {
					t.Errorf("key %q is not snake_case", k)
				}
				switch k {
				case "events", "skipped", "not_due", "probes": // keyed by data, not fields
				default:
					walk(x)
				}
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(keys)
}

// A method that predicted no job has no mean and no share: -json gives
// null, as the text gives "–" (it gave 0 and 0, which read as perfect
// predictions none of which was within ×2).
func TestJSONNoJobsNull(t *testing.T) {
	// (methodJSON is no longer a conversion of Method: a field added
	// there must be added here.)
	if a, b := reflect.TypeFor[slurmfeed.Method]().NumField(), reflect.TypeFor[methodJSON]().NumField(); a != b {
		t.Errorf("slurmfeed.Method has %d fields, methodJSON %d", a, b)
	}
	r := slurmfeed.Report{Methods: []slurmfeed.Method{{Name: "none"}, {Name: "some", Jobs: 2, MeanAbsLog10: 0.5, Within2: 0.5, SumAbsLog10: 1, NWithin2: 1}}}
	b, err := json.Marshal(toJSON(&r))
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Methods []map[string]any `json:"methods"`
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if m := got.Methods[0]; m["mean_abs_log10"] != nil || m["within2"] != nil {
		t.Errorf("no job: %v; want mean_abs_log10 and within2 null", m)
	}
	if m := got.Methods[1]; m["mean_abs_log10"] != 0.5 || m["within2"] != 0.5 || m["n_within2"] != float64(1) {
		t.Errorf("two jobs: %v", m)
	}
}

// -listen's server refuses headers beyond 64 KiB (431), as
// examples/qserve's does: net/http's default let 1 MiB in (loopback
// only; one request).
func TestListenHeadersBounded(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := newServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {}))
	go srv.Serve(ln) //nolint:errcheck // closed below
	defer srv.Close()
	req, _ := http.NewRequest("GET", "http://"+ln.Addr().String()+"/slurmfeed/report.json", nil)
	req.Header.Set("X-Big", strings.Repeat("x", 200<<10))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
		t.Errorf("a 200 KiB header: %d, want 431", resp.StatusCode)
	}
}

// -listen's server holds at most -max-conns connections from everyone
// and -client-conns from one address (connlimit, shared with qserve
// serve): before, it held every connection a client opened until its
// idle timeout. 5 keep-alive connections from 127.0.0.1: 3 answered with
// -client-conns 3, 2 with -max-conns 2, the others closed when accepted
// (loopback only; bounded: 10 connections, 3 s each at most).
func TestListenConnsBounded(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{fmt.Sprintf("at most %d connections from one address", connlimit.DefaultClient), fmt.Sprintf("at most %d in all (`-max-conns`)", connlimit.DefaultTotal)} {
		if !strings.Contains(string(readme), want) {
			t.Errorf("README.md does not say the default: %q", want)
		}
	}
	svc, c := listenFixture(t)
	for _, k := range []struct {
		flags []string
		want  int
	}{{[]string{"-client-conns", "3"}, 3}, {[]string{"-max-conns", "2"}, 2}} {
		o, err := parse(append([]string{"-listen", "127.0.0.1:0"}, k.flags...), io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		stop, addr, err := serve(o.listen, o.conns, svc, c, log.New(io.Discard, "", 0))
		if err != nil {
			t.Fatal(err)
		}
		answered := 0
		for range 5 {
			conn, err := net.Dial("tcp", addr.String())
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			fmt.Fprint(conn, "GET /slurmfeed/report.json HTTP/1.1\r\nHost: x\r\n\r\n")
			conn.SetReadDeadline(time.Now().Add(3 * time.Second)) //nolint:errcheck // a deadline on a live conn
			if resp, err := http.ReadResponse(bufio.NewReader(conn), nil); err == nil {
				io.Copy(io.Discard, resp.Body) //nolint:errcheck // drained
				resp.Body.Close()
				answered++
			}
		}
		stop()
		if answered != k.want {
			t.Errorf("%v: 5 connections from one address: %d answered, want %d", k.flags, answered, k.want)
		}
	}
}

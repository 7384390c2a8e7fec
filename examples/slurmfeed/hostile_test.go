package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/batchq/batchq/examples/internal/cli"
	"github.com/batchq/batchq/examples/internal/errlog"
	"github.com/batchq/batchq/qbets/karnak"
	"github.com/batchq/batchq/qbets/karnak/slurmfeed"
)

// A recording given to -replay may have been gunzipped to be read (it is
// JSON lines), cut short by a copy, or be empty: the plain one replays as
// the gzip one does, and the others fail naming what is wrong (truncated
// gzip, no polls), not "gzip: invalid header", a JSON error at a line
// the truncation made, or a bare "EOF".
func TestRecordingFiles(t *testing.T) {
	gz, err := os.ReadFile(filepath.Join("testdata", "live.jsonl.gz"))
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		t.Fatal(err)
	}
	plain, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	want, err := readRecording(filepath.Join("testdata", "live.jsonl.gz"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := readRecording(write("live.jsonl", plain))
	if err != nil {
		t.Fatalf("plain recording: %v", err)
	}
	if len(got.polls) != len(want.polls) {
		t.Errorf("plain recording: %d polls, want %d", len(got.polls), len(want.polls))
	}
	for _, c := range []struct{ name, want string }{
		{"cut.jsonl.gz", "truncated"},
		{"empty.jsonl.gz", "no polls"},
	} {
		var b []byte
		if c.name == "cut.jsonl.gz" {
			b = gz[:len(gz)/2]
		}
		_, err := readRecording(write(c.name, b))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one saying %q", c.name, err, c.want)
		}
	}
}

// A replay that ends while jobs are still inside the reorder delay (the
// recording cut after poll 15, when the workload's 19 jobs have all been
// submitted and the last 5 are younger than the delay), or whose clock
// then runs backwards, accounts for every job it read: fed, skipped, or
// not yet due with why, in the -json and the text output.
func TestReplayEndAccountsForEveryJob(t *testing.T) {
	all, err := readRecording(recordingPath)
	if err != nil {
		t.Fatal(err)
	}
	const cut = 15
	var lines []recLine
	for _, p := range all.polls[:cut] {
		lines = append(lines, p...)
	}
	last := all.polls[cut-1]
	for _, l := range last { // the last poll again, 100 s earlier
		l.Poll, l.Time = l.Poll+1, l.Time-100
		lines = append(lines, l)
	}
	dir := t.TempDir()
	for _, c := range []struct {
		name   string
		lines  []recLine
		reason string
	}{
		{"delay.jsonl", lines[:len(lines)-len(last)], "reorder delay"},
		{"backwards.jsonl", lines, "ran backwards"},
	} {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		for _, l := range c.lines {
			if err := enc.Encode(l); err != nil {
				t.Fatal(err)
			}
		}
		path := filepath.Join(dir, c.name)
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		if err := run(context.Background(), []string{"-poll", "2s", "-replay", path, "-json"}, &out, io.Discard); err != nil {
			t.Fatal(err)
		}
		var r reportJSON
		if err := json.Unmarshal(out.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		n, why := r.Events["submit"], ""
		for k, v := range r.Skipped {
			n += v
			why += k
		}
		for k, v := range r.NotDue {
			n += v
			why += k
		}
		if n != 19 || !strings.Contains(why, c.reason) {
			t.Errorf("%s: %d jobs accounted for (submits %d, skipped %v, not due %v), want the 19 read, some %q",
				c.name, n, r.Events["submit"], r.Skipped, r.NotDue, c.reason)
		}
		out.Reset()
		if err := run(context.Background(), []string{"-poll", "2s", "-replay", path}, &out, io.Discard); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), "not yet due") || !strings.Contains(out.String(), c.reason) {
			t.Errorf("%s: the text output does not count the jobs not yet due:\n%s", c.name, out.String())
		}
	}
}

// A recording whose squeue output no poll can read (here cut short, as a
// full disk or a killed squeue leaves it) fails every poll: the text
// report said "66 failed polls" and nothing of why, since -replay drops
// the collector's log lines; it now gives the last failure, as -json's
// last_error does.
func TestReplayFailedPollsSayWhy(t *testing.T) {
	all, err := readRecording(recordingPath)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	for _, p := range all.polls {
		for _, l := range p {
			if len(l.Cmd) > 0 && l.Cmd[0] == "squeue" {
				l.Out = l.Out[:len(l.Out)/2]
			}
			if err := enc.Encode(l); err != nil {
				t.Fatal(err)
			}
		}
	}
	path := filepath.Join(t.TempDir(), "cut-squeue.jsonl")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := run(context.Background(), []string{"-replay", path}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "failed polls") || !strings.Contains(out.String(), "The last failed poll: squeue --json: ") {
		t.Errorf("the text report does not say why the polls failed:\n%s", out.String())
	}
}

// A bearer token is not sent over http:// to another host, where anyone on
// the path reads it and may then feed the service as this site; over
// https:// or to a loopback address (a tunnel) it is. A -service that is
// not an http(s) URL is refused at once rather than at every post.
func TestServiceTokenInClear(t *testing.T) {
	for _, c := range []struct {
		service, token string
		ok             bool
	}{
		{"http://10.1.2.3:8080", "sA-0123456789abcdef", false},
		{"http://karnak.example.edu", "sA-0123456789abcdef", false},
		{"http://[2001:db8::1]:8080", "sA-0123456789abcdef", false},
		{"https://karnak.example.edu", "sA-0123456789abcdef", true},
		{"http://127.0.0.1:8080", "sA-0123456789abcdef", true},
		{"http://[::1]:8080", "sA-0123456789abcdef", true},
		{"http://localhost:8080", "sA-0123456789abcdef", true},
		{"http://10.1.2.3:8080", "", true},
		{"10.1.2.3:8080", "", false},
		{"ftp://10.1.2.3/", "", false},
	} {
		_, err := parse([]string{"-service", c.service, "-token", c.token, "-cursor", filepath.Join(t.TempDir(), "c.json")}, io.Discard)
		if (err == nil) != c.ok {
			t.Errorf("-service %s -token %q: %v, want ok %v", c.service, c.token, err, c.ok)
		}
		if err != nil && !strings.Contains(err.Error(), "-service") {
			t.Errorf("-service %s: %v, want the flag named", c.service, err)
		}
	}
}

// lockedBuffer is a bytes.Buffer for a logger that goroutines share.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// listenFixture is an in-process service, loaded, and a collector
// feeding it, for -listen's server.
func listenFixture(t *testing.T) (*karnak.Service, *slurmfeed.Collector) {
	t.Helper()
	svc, err := karnak.New(nil, karnak.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.Load(context.Background()); err != nil {
		t.Fatal(err)
	}
	c, err := slurmfeed.New(slurmfeed.Config{System: "x", Service: svc, Poll: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	return svc, c
}

// emfileListener fails every other accept as the kernel's accept does
// when the process is out of file descriptors (EMFILE).
type emfileListener struct {
	net.Listener
	mu sync.Mutex
	n  int
}

func (l *emfileListener) Accept() (net.Conn, error) {
	l.mu.Lock()
	l.n++
	fail := l.n%2 == 1
	l.mu.Unlock()
	if fail {
		return nil, &net.OpError{Op: "accept", Net: "tcp", Addr: l.Addr(), Err: os.NewSyscallError("accept4", syscall.EMFILE)}
	}
	return l.Listener.Accept()
}

// -listen's server logs at most errlog.Burst of net/http's own lines a
// period, then how many it left out. net/http writes one for each accept
// that fails, as every one does while a client holds connections past
// the process's file limit, and they went to the standard logger: a
// client wrote to the daemon's log at will (60 failed accepts, 60 lines
// on stderr).
func TestListenErrorLogBounded(t *testing.T) {
	svc, c := listenFixture(t)
	o, err := parse([]string{"-listen", "127.0.0.1:0"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	inner, err := net.Listen("tcp", o.listen)
	if err != nil {
		t.Fatal(err)
	}
	ln := &emfileListener{Listener: inner}
	var out lockedBuffer
	stop := serveOn(ln, o.conns, svc, c, log.New(&out, "", 0))
	const conns = 60 // each after a failed accept
	for range conns {
		conn, err := net.DialTimeout("tcp", inner.Addr().String(), 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		conn.SetDeadline(time.Now().Add(10 * time.Second)) //nolint:errcheck // a deadline on a live conn
		fmt.Fprint(conn, "GET /slurmfeed/report.json HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
		if _, err := http.ReadResponse(bufio.NewReader(conn), nil); err != nil {
			t.Fatal(err)
		}
		conn.Close()
	}
	stop()
	// (A last accept may fail after stop, unlogged: the count is read
	// from the log, and must cover the conns accepts that failed.)
	n, more := 0, 0
	for _, l := range strings.Split(out.String(), "\n") {
		if strings.Contains(l, "too many open files") {
			n++
		}
		fmt.Sscanf(l, "%d more server errors", &more) //nolint:errcheck // 0 unless the line says it
	}
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("are at most %d a minute of at most %s bytes", errlog.Burst, "1,024"); errlog.Period != time.Minute || errlog.MaxLine != 1024 ||
		!strings.Contains(strings.ReplaceAll(string(readme), "\n", " "), want) {
		t.Errorf("README.md does not say the bounds: %q", want)
	}
	if n == 0 || n > errlog.Burst || n+more < conns {
		t.Errorf("%d failed accepts: %d lines logged and %d counted, want 1 to %d logged and all %d said", conns, n, more, errlog.Burst, conns)
	}
}

// A setting whose 0 the collector takes as its default, given 0 on the
// command line, and a negative -duration were run without a word (at
// quantile 50, confidence 90, keep 1h; until interrupted): usage errors.
func TestZeroSettingsRefused(t *testing.T) {
	for _, flag := range [][]string{{"-quantile", "0"}, {"-confidence", "0"}, {"-keep", "0s"}, {"-duration", "-1s"}} {
		var out, errb bytes.Buffer
		args := append([]string{"-replay", recordingPath}, flag...)
		code := command(context.Background(), args, nil, &out, &errb)
		if code != 2 || out.Len() != 0 || !strings.Contains(errb.String(), flag[0]+" ") {
			t.Errorf("%v: exit %d, stderr %q; want 2 naming %s", flag, code, errb.String(), flag[0])
		}
	}
}

// The collector's refusals name the flags: "slurmfeed: Quantile: 100,
// want 1–99" named slurmfeed.Config's field for -quantile 100.
func TestBadSettingNamesFlag(t *testing.T) {
	for _, c := range [][]string{{"-quantile", "100"}, {"-confidence", "99"}, {"-probe", "31m"}, {"-since", "-1h"}} {
		var out, errb bytes.Buffer
		code := command(context.Background(), append([]string{"-replay", recordingPath}, c...), nil, &out, &errb)
		if code != 2 || !strings.Contains(errb.String(), c[0]) || strings.Contains(errb.String(), "Quantile") ||
			strings.Contains(errb.String(), "Confidence") || strings.Contains(errb.String(), "ProbeEvery") || strings.Contains(errb.String(), "Since") {
			t.Errorf("%v: exit %d, stderr %q; want 2 naming %s", c, code, errb.String(), c[0])
		}
	}
}

// A -service with a query or fragment is refused as a URL of another
// form is: the collector's paths were appended into it (every post to
// "/?x/karnak/events").
func TestServiceQueryRefused(t *testing.T) {
	for _, svc := range []string{"http://127.0.0.1:1/?x", "http://127.0.0.1:1/#y", "http://127.0.0.1:1/?"} {
		var out, errb bytes.Buffer
		code := command(context.Background(), []string{"-service", svc, "-cursor", filepath.Join(t.TempDir(), "c"), "-duration", "1s"}, nil, &out, &errb)
		if code != 2 || !strings.Contains(errb.String(), "want http(s)://host:port") {
			t.Errorf("-service %s: exit %d, stderr %q", svc, code, errb.String())
		}
	}
}

// -listen on an address that is not loopback's says on stderr that the
// service is open to the network (it said nothing: the in-process
// service has no token, its reads are anyone's); on loopback it says
// nothing. (The service without tokens takes writes from loopback only:
// karnak's TestClosedByDefault.)
func TestListenOpenWarned(t *testing.T) {
	for _, c := range []struct {
		ip   net.IP
		open bool
	}{
		{net.IPv4zero, true}, {net.IPv6unspecified, true}, {net.IPv4(192, 0, 2, 1), true},
		{net.IPv4(127, 0, 0, 1), false}, {net.IPv6loopback, false},
	} {
		w := openWarning(&net.TCPAddr{IP: c.ip, Port: 8080})
		if got := strings.Contains(w, "open to the network"); got != c.open {
			t.Errorf("%s: warning %q, want open %v", c.ip, w, c.open)
		}
	}
	svc, c := listenFixture(t)
	o, err := parse([]string{"-listen", "127.0.0.1:0"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	var out lockedBuffer
	stop, _, err := serve(o.listen, o.conns, svc, c, log.New(&out, "", 0))
	if err != nil {
		t.Fatal(err)
	}
	stop()
	if s := out.String(); !strings.Contains(s, "serving the service") || strings.Contains(s, "warning") {
		t.Errorf("loopback: %q", s)
	}
}

// A -readme that is missing, a directory or without the generated
// section's markers fails before the feed starts: it failed once the
// run was over (a live run of -duration 3h, here 5 s), and the report,
// printed after it, was lost.
func TestReadmeCheckedFirst(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "plain.md")
	if err := os.WriteFile(plain, []byte("# no markers\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ path, want string }{
		{filepath.Join(dir, "missing", "README.md"), "no such file"},
		{dir, "is a directory"},
		{plain, "no generated section"},
	} {
		var out, errb bytes.Buffer
		t0 := time.Now()
		err := run(context.Background(), []string{"-duration", "5s", "-poll", "1s", "-readme", c.path}, &out, &errb)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "-readme") {
			t.Errorf("%s: %v, want an error naming -readme and %q", c.path, err, c.want)
		}
		if d := time.Since(t0); d > 3*time.Second {
			t.Errorf("%s: refused after %v, the run's -duration: want at once", c.path, d.Round(time.Millisecond))
		}
	}
}

// -token without -service, and -max-conns or -client-conns without
// -listen, are usage errors: each was dropped without a word (the
// in-process service takes no token; without -listen there is no server
// to bound). $SLURMFEED_TOKEN, -token's default, is not refused so.
func TestFlagsWithoutEffectRefused(t *testing.T) {
	const rec = "testdata/live.jsonl.gz"
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-token", "sA-0123456789abcdef", "-replay", rec}, "-token"},
		{[]string{"-token", "sA-0123456789abcdef", "-listen", "127.0.0.1:0"}, "-token"},
		{[]string{"-client-conns", "5", "-replay", rec}, "-client-conns"},
		{[]string{"-max-conns", "5"}, "-max-conns"},
	} {
		_, err := parse(c.args, io.Discard)
		if !errors.As(err, new(cli.UsageError)) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want a usage error naming %s", c.args, err, c.want)
		}
	}
	t.Setenv("SLURMFEED_TOKEN", "sA-0123456789abcdef")
	if _, err := parse([]string{"-replay", rec}, io.Discard); err != nil {
		t.Errorf("-replay with $SLURMFEED_TOKEN set: %v", err)
	}
}

package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/batchq/batchq/examples/internal/cli"
	"github.com/batchq/batchq/examples/internal/connlimit"
	"github.com/batchq/batchq/qbets/karnak"
)

// A client that sends its headers and then trickles (or stops sending)
// its body is cut off by the server's read timeout, and an idle
// keep-alive connection by the idle timeout (loopback only; bounded).
func TestSlowBodyClosed(t *testing.T) {
	s := newService(t, nil, karnak.Config{})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := newServer(s.Handler(), timeouts{header: time.Second, read: 300 * time.Millisecond, write: time.Second, idle: 300 * time.Millisecond})
	go srv.Serve(ln) //nolint:errcheck // closed below
	defer srv.Close()

	conn, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	t0 := time.Now()
	fmt.Fprint(conn, "POST /karnak/events HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n[{")
	conn.SetReadDeadline(time.Now().Add(5 * time.Second)) //nolint:errcheck // a deadline on a fresh conn
	b, err := io.ReadAll(conn)                            // until the server closes it
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Fatalf("a slow body held the connection for 5 s (read %q)", b)
	}
	if d := time.Since(t0); d > 3*time.Second {
		t.Fatalf("closed after %v", d)
	}
	t.Logf("slow body: connection closed after %v; the server said %q", time.Since(t0).Round(time.Millisecond), firstLine(string(b)))

	// An idle keep-alive connection.
	conn2, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn2.Close()
	fmt.Fprint(conn2, "GET /karnak/system/status.txt HTTP/1.1\r\nHost: x\r\n\r\n")
	conn2.SetReadDeadline(time.Now().Add(5 * time.Second)) //nolint:errcheck // a deadline on a fresh conn
	br := bufio.NewReader(conn2)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body) //nolint:errcheck // drained
	resp.Body.Close()
	t1 := time.Now()
	if _, err := br.ReadByte(); err == nil || errors.As(err, &ne) && ne.Timeout() {
		t.Fatalf("idle connection not closed: %v", err)
	}
	if d := time.Since(t1); d > 3*time.Second {
		t.Fatalf("idle connection closed after %v", d)
	}
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\r\n")
	return l
}

// Crash and restart on SQLite with a far-future event attempted: the
// event is refused before it is stored, the store is closed and
// reopened, and the restarted service rebuilds at once and answers the
// same.
func TestRestartAfterFarFuture(t *testing.T) {
	db := filepath.Join(t.TempDir(), "q.db")
	st, err := OpenStore(db)
	if err != nil {
		t.Fatal(err)
	}
	s := newService(t, st, karnak.Config{})
	srv := httptest.NewServer(s.Handler())
	evs, _ := json.Marshal(testEvents())
	if code, out := do(t, "POST", srv.URL+"/karnak/events", "application/json", string(evs)); code != 200 {
		t.Fatalf("ingest: %d %s", code, out)
	}
	for _, tm := range []int64{testNow * 1000, 1<<63 - 1} {
		body := fmt.Sprintf(`{"kind":"submit","system":"s1","job":9000,"time":%d,"queue":"debug","cores":1}`, tm)
		if code, out := do(t, "POST", srv.URL+"/karnak/events", "application/json", body); code != 400 || !strings.Contains(out, "time") {
			t.Fatalf("far-future %d: %d %s", tm, code, out)
		}
	}
	q := "/karnak/system/s1/job/1002/prediction/waittime.json?within=00:10:00"
	code, before := do(t, "GET", srv.URL+q, "", "")
	if code != 200 {
		t.Fatalf("%d %s", code, before)
	}
	srv.Close()
	rows, _ := st.Rows()
	st.Close() // the crash: nothing more is written
	st, err = OpenStore(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	t0 := time.Now()
	s = newService(t, st, karnak.Config{})
	if d := time.Since(t0); d > 5*time.Second {
		t.Fatalf("restart took %v", d)
	}
	srv = httptest.NewServer(s.Handler())
	defer srv.Close()
	code, after := do(t, "GET", srv.URL+q, "", "")
	if n, _ := st.Rows(); code != 200 || after != before || n != rows {
		t.Fatalf("after restart (%d rows, was %d): %d\n%s\nwant\n%s", n, rows, code, after, before)
	}
}

// The serve command's token file: a write without a token is 401, with
// the site's token 200.
func TestServeTokens(t *testing.T) {
	dir := t.TempDir()
	tokens := filepath.Join(dir, "tokens")
	if err := writeFile(tokens, "# name secret systems [admin]\nsiteA sA-0123456789abcdef s1\nops op-0123456789abcdef * admin\n"); err != nil {
		t.Fatal(err)
	}
	tk, err := readTokens(tokens)
	if err != nil || len(tk) != 2 || !tk[1].Admin || tk[0].Systems[0] != "s1" {
		t.Fatalf("readTokens: %+v %v", tk, err)
	}
	s := newService(t, nil, karnak.Config{Tokens: tk})
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	evs, _ := json.Marshal(testEvents()[:3])
	if code, out := do(t, "POST", srv.URL+"/karnak/events", "application/json", string(evs)); code != 401 {
		t.Fatalf("no token: %d %s", code, out)
	}
	if code, out := doAuth(t, "POST", srv.URL+"/karnak/events", "application/json", "sA-0123456789abcdef", string(evs)); code != 200 {
		t.Fatalf("site token: %d %s", code, out)
	}
	if err := writeFile(tokens, "siteA short\n"); err != nil {
		t.Fatal(err)
	}
	if _, err := readTokens(tokens); err == nil {
		t.Fatal("a malformed token file accepted")
	}
}

// Closed by default: serve without -tokens makes a write and an admin
// token beside its database (mode 0600), prints them once, and reads the
// same file at the next start without printing; a tokens file others may
// read is refused. The admin token repairs.
func TestDefaultTokens(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "q.db.tokens")
	var first, second strings.Builder
	tks, err := defaultTokens(path, &first)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 || len(tks) != 2 || !tks[1].Admin || tks[0].Admin {
		t.Fatalf("tokens file: %v %v, tokens %+v", fi, err, tks)
	}
	if !strings.Contains(first.String(), tks[0].Secret) || !strings.Contains(first.String(), tks[1].Secret) {
		t.Fatalf("not printed: %q", first.String())
	}
	again, err := defaultTokens(path, &second)
	if err != nil || second.Len() != 0 || again[0].Secret != tks[0].Secret || again[1].Secret != tks[1].Secret {
		t.Fatalf("second start: %+v %v, printed %q", again, err, second.String())
	}
	if mem, err := defaultTokens("", &second); err != nil || len(mem) != 2 || !strings.Contains(second.String(), `in memory (-db "")`) { // "no -db" read as leaving the flag out, which stores in qserve.db
		t.Fatalf("without a database: %v %q", err, second.String())
	}
	s := newService(t, nil, karnak.Config{Tokens: tks})
	if err := s.Ingest(testEvents()); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	evs, _ := json.Marshal(testEvents()[:2])
	if code, out := do(t, "POST", srv.URL+"/karnak/events", "application/json", string(evs)); code != 401 {
		t.Errorf("a write without a token: %d %s", code, out)
	}
	if code, out := doAuth(t, "POST", srv.URL+"/karnak/admin/system/s1/drop", "", tks[0].Secret, ""); code != 403 {
		t.Errorf("drop with the write token: %d %s", code, out)
	}
	if code, out := doAuth(t, "POST", srv.URL+"/karnak/admin/system/s1/drop", "", tks[1].Secret, ""); code != 200 {
		t.Errorf("drop with the admin token: %d %s", code, out)
	}
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := defaultTokens(path, io.Discard); err == nil || !strings.Contains(err.Error(), "chmod 600") {
		t.Errorf("a world-readable tokens file: %v", err)
	}
}

// FuzzParseTokens: the tokens file parser never panics, and every token
// it returns is one the service takes.
func FuzzParseTokens(f *testing.F) {
	f.Add("# name secret systems [admin]\nsiteA sA-0123456789abcdef s1\nops op-0123456789abcdef * admin\n")
	f.Add("a 0123456789abcdef0 s1,s2,..\n")
	f.Add("a 0123456789abcdef0 s1\nb 0123456789abcdef0 s2\n")
	f.Add("x y\n")
	f.Fuzz(func(t *testing.T, data string) {
		tks, err := parseTokens([]byte(data), "fuzz")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		if err := (karnak.Config{Tokens: tks}).Validate(); err != nil || len(tks) == 0 {
			t.Fatalf("%d tokens the service refuses: %v", len(tks), err)
		}
	})
}

// A tokens file is checked in time linear in its tokens: every token so
// far was checked again at each line (50 million checks, 14.7 s at start,
// for maxTokens). The errors still name the line.
func TestParseTokensLinear(t *testing.T) {
	checked := 0
	defer func(f func(karnak.Config) error) { checkTokens = f }(checkTokens)
	checkTokens = func(c karnak.Config) error { checked += len(c.Tokens); return c.Validate() }
	var b strings.Builder
	const n = 2000
	for i := range n {
		fmt.Fprintf(&b, "site%d secret-%032d s%d\n", i, i, i)
	}
	tks, err := parseTokens([]byte(b.String()), "many")
	if err != nil || len(tks) != n {
		t.Fatalf("%d tokens: %v", len(tks), err)
	}
	if checked > 2*n {
		t.Errorf("%d tokens: %d token checks, want at most %d", n, checked, 2*n)
	}
	for _, c := range []struct{ file, want string }{
		{b.String() + "bad short s1\n", fmt.Sprintf("many:%d: Secret: 5 bytes", n+1)},
		{b.String() + "dup secret-00000000000000000000000000000007 s1\n", fmt.Sprintf("many:%d: the secret of the token of line 8", n+1)},
		{b.String() + "sys secret-for-a-bad-system-name s/1\n", fmt.Sprintf("many:%d: Systems: \"s/1\"", n+1)},
	} {
		if _, err := parseTokens([]byte(c.file), "many"); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("error %v, want %q", err, c.want)
		}
	}
}

// countingListener counts the bytes the server reads from its
// connections.
type countingListener struct {
	net.Listener
	read *atomic.Int64
}

func (l countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	return countingConn{c, l.read}, err
}

type countingConn struct {
	net.Conn
	read *atomic.Int64
}

func (c countingConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.read.Add(int64(n))
	return n, err
}

// Twenty clients at once post 3.9 MB batches without a token, on
// 127.0.0.1 (bounded: 20 requests, 30 s): each is refused from its
// header, and the server reads at most what net/http drains to keep a
// connection (256 KiB) of each body, not the 78 MB sent. Before this
// change the token was checked after the body was read and decoded: 0.5–1.2 s
// of CPU and tens of MB of memory per batch.
func TestUnauthenticatedBatchesCheap(t *testing.T) {
	tk := []karnak.Token{{Name: "site", Secret: "site-secret-0123456789", Systems: []string{"*"}}}
	s := newService(t, nil, karnak.Config{Tokens: tk})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var read atomic.Int64
	srv := newServer(s.Handler(), timeouts{header: 5 * time.Second, read: 30 * time.Second, write: 30 * time.Second, idle: time.Second})
	go srv.Serve(countingListener{ln, &read}) //nolint:errcheck // closed below
	defer srv.Close()
	ev := fmt.Sprintf(`{"kind":"queue","system":"s1","time":%d,"queue":"q","cores":1,"wallTime":60},`, testNow)
	body := "[" + strings.Repeat(ev, 3900000/len(ev)) + ev[:len(ev)-1] + "]"
	const clients = 20
	var wg sync.WaitGroup
	var refused, cut atomic.Int64
	var ms0, ms1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms0)
	t0 := time.Now()
	for range clients {
		wg.Go(func() {
			req, _ := http.NewRequest("POST", "http://"+ln.Addr().String()+"/karnak/events", strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			resp, err := (&http.Client{Timeout: 30 * time.Second}).Do(req)
			if err != nil {
				cut.Add(1) // the server answered and closed before the client sent it all
				return
			}
			io.Copy(io.Discard, resp.Body) //nolint:errcheck // drained
			resp.Body.Close()
			if resp.StatusCode == http.StatusUnauthorized {
				refused.Add(1)
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(t0)
	runtime.ReadMemStats(&ms1)
	t.Logf("%d batches of %d bytes: %d answered 401, %d cut off; the server read %d bytes in all, in %v; heap in use %d → %d kB",
		clients, len(body), refused.Load(), cut.Load(), read.Load(), elapsed.Round(time.Millisecond), ms0.HeapInuse>>10, ms1.HeapInuse>>10)
	if refused.Load()+cut.Load() != clients || refused.Load() == 0 {
		t.Errorf("%d refused, %d cut off, of %d", refused.Load(), cut.Load(), clients)
	}
	if limit := int64(clients) * (256<<10 + 64<<10); read.Load() > limit {
		t.Errorf("the server read %d bytes, at most %d expected", read.Load(), limit)
	}
}

// The client refuses, as usage errors before any request (no server
// listens here), what the service would refuse or misread: -c and -q
// outside their documented ranges, cores that are no whole number ≥ 1,
// a location or a queue without its system, an empty name.
func TestClientOperandsChecked(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"kwait", "-q", "100", "s", "1"}, "-q 100"},
		{[]string{"kwait", "-c", "5", "s", "1"}, "-c 5"},
		{[]string{"kwouldwait", "99999999999999999999", "01:00:00", "q@s"}, "cores"},
		{[]string{"kwouldwait", "0", "01:00:00", "q@s"}, "cores"},
		{[]string{"kwouldwait", "4", "01:00:00", "q@"}, "location"},
		{[]string{"kwouldwait", "4", "01:00:00", "@s"}, "location"},
		{[]string{"kqueue", "@"}, "want [queue@]system"},
		{[]string{"kqueue", "q@"}, "want [queue@]system"},
		{[]string{"ksystem", " "}, "empty argument"},
	} {
		var out, errb strings.Builder
		err := run(context.Background(), append([]string{c.args[0], "-server", "http://127.0.0.1:1"}, c.args[1:]...), &out, &errb)
		if !errors.As(err, new(cli.UsageError)) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want a usage error with %q", c.args, err, c.want)
		}
	}
}

// A name is one segment of the request's path: "a/../b" and "1?x=y" ask
// for the job named so, not for another resource.
func TestClientNamesEscaped(t *testing.T) {
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = append(got, r.URL.EscapedPath()+"?"+r.URL.RawQuery)
	}))
	defer srv.Close()
	var out, errb strings.Builder
	if err := run(context.Background(), []string{"kwait", "-server", srv.URL, "-within", "00:30:00&x=1", "a/../b", "1?x=y"}, &out, &errb); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0] != "/karnak/system/a%2F..%2Fb/job/1%3Fx=y/prediction/waittime.txt?confidence=90&quantile=95&within=00%3A30%3A00%26x%3D1" {
		t.Errorf("requests %q", got)
	}
}

// A timeout of 0 is none in net/http (-header-timeout 0 -read-timeout 0:
// a slow client held a connection for ever), -history near the int limit
// wrapped QBETS's trim point, -now -5 fixed the clock before 1970, -now
// 2^63−1 wrapped the clock plus -max-skew (every event "ahead" of it),
// -grace -1s cut off the requests in flight at once, -speed without
// -replay was dropped without a word, a
// system replayed twice failed at start ("job 1 is already known"), and a
// -neighbors count given twice for one system (or for all) replaced the
// first with no word: each is a usage error, found before the service
// listens.
func TestServeFlagsBounded(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "t.swf")
	os.WriteFile(trace, []byte("; MaxProcs: 8\n1 0 5 10 1 -1 -1 1 20 -1 1 1 1 1 1 -1 -1 -1\n"), 0o644)
	for _, args := range [][]string{
		{"-header-timeout", "0"}, {"-read-timeout", "0"}, {"-write-timeout", "-1s"}, {"-idle-timeout", "0"},
		{"-history", "9223372036854775807"}, {"-now", "-5"},
		{"-now", "9223372036854775807"}, {"-now", "1099511627777"}, {"-grace", "-1s"}, {"-speed", "10"},
		{"-replay", "a=" + trace, "-replay", "a=" + trace},
		{"-neighbors", "5", "-neighbors", "7"}, {"-neighbors", "a=5", "-neighbors", "b=6", "-neighbors", "a=7"},
	} {
		var out, errb strings.Builder
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second) // a service that started stops
		err := run(ctx, append([]string{"serve", "-addr", "127.0.0.1:0", "-db", "", "-tokens", "off"}, args...), &out, &errb)
		cancel()
		if !errors.As(err, new(cli.UsageError)) {
			t.Errorf("%q: %v, want a usage error", args, err)
		}
	}
}

// -speed, -rate and -burst values the service refuses are usage errors
// found before it listens, as TestServeFlagsBounded's are: -speed -1 (0,
// NaN) started the service, printed "listening on ...", then stopped with
// exit 1 ("stopping: speed: -1, want > 0"); -rate NaN and -burst -1 were
// exit 1 too.
func TestServeSpeedRateBounded(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "t.swf")
	os.WriteFile(trace, []byte("; MaxProcs: 8\n1 0 5 10 1 -1 -1 1 20 -1 1 1 1 1 1 -1 -1 -1\n"), 0o644)
	for _, args := range [][]string{
		{"-speed", "-1"}, {"-speed", "0"}, {"-speed", "NaN"}, {"-speed", "+Inf"},
		{"-rate", "NaN"}, {"-rate", "+Inf"}, {"-burst", "-1"},
		{"-max-forecast-jobs", "99999999999"}, // (exit 1, not a usage error)
	} {
		var out, errb strings.Builder
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second) // a service that started stops
		err := run(ctx, append([]string{"serve", "-addr", "127.0.0.1:0", "-db", "", "-tokens", "off", "-replay", "a=" + trace}, args...), &out, &errb)
		cancel()
		if !errors.As(err, new(cli.UsageError)) || strings.Contains(errb.String(), "listening") {
			t.Errorf("%q: %v (log %q), want a usage error before listening", args, err, errb.String())
		}
	}
}

// -db - and -tokens - are usage errors, as "-" for the other commands'
// output files: each made a file named "-" in the working directory.
func TestServeDashFiles(t *testing.T) {
	t.Chdir(t.TempDir())
	for _, c := range []struct {
		flag string
		args []string
	}{{"-db", []string{"-db", "-", "-tokens", "off"}}, {"-tokens", []string{"-db", "", "-tokens", "-"}}} {
		var out, errb strings.Builder
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second) // a service that started stops
		err := run(ctx, append([]string{"serve", "-addr", "127.0.0.1:0"}, c.args...), &out, &errb)
		cancel()
		if !errors.As(err, new(cli.UsageError)) || !strings.Contains(err.Error(), c.flag+" -: ") {
			t.Errorf("%q: %v, want a usage error naming %s", c.args, err, c.flag)
		}
	}
	if _, err := os.Stat("-"); err == nil {
		t.Error(`a file named "-" was made`)
	}
}

// One client address holds at most -client-conns connections at once:
// one more is closed as soon as it is accepted, a place is given back
// when a connection closes, and a trusted proxy is exempt (loopback
// only; bounded: 9 connections). Before the limit every idle
// connection was held until the idle timeout, whatever the rate limit.
func TestClientConnsBounded(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("most %d open at once (`-client-conns`", connlimit.DefaultClient); !strings.Contains(string(readme), want) {
		t.Errorf("README.md does not say the default: %q", want)
	}
	const per = 4
	for _, c := range []struct {
		exempt []string
		want   int // connections the server keeps of per+1
	}{{nil, per}, {[]string{"10.0.0.0/8", "127.0.0.1"}, per + 1}} {
		raw, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		s := newService(t, nil, karnak.Config{TrustedProxies: c.exempt})
		ln := connlimit.Listen(raw, per, 0, s.ConnClient)
		srv := newServer(s.Handler(), timeouts{header: 5 * time.Second, read: 5 * time.Second, write: 5 * time.Second, idle: 30 * time.Second})
		go srv.Serve(ln) //nolint:errcheck // closed below
		get := statusOn
		var conns []net.Conn
		kept := 0
		for range per + 1 {
			conn, err := net.Dial("tcp", ln.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			conns = append(conns, conn)
			if get(conn) == nil {
				kept++
			}
		}
		if kept != c.want {
			t.Errorf("exempt %v: %d of %d connections from one address answered, want %d", c.exempt, kept, per+1, c.want)
		}
		if c.exempt == nil {
			conns[0].Close()
			// The server sees the close when it next reads: a new
			// connection is answered within a few tries.
			var err error
			for try := 0; try < 30; try++ {
				var conn net.Conn
				if conn, err = net.Dial("tcp", ln.Addr().String()); err != nil {
					t.Fatal(err)
				}
				conns = append(conns, conn)
				if err = get(conn); err == nil {
					break
				}
				conn.Close()
				time.Sleep(100 * time.Millisecond)
			}
			if err != nil {
				t.Errorf("after one connection closed, a new one: %v", err)
			}
		}
		for _, conn := range conns {
			conn.Close()
		}
		srv.Close()
	}
}

// serve's server reads at most 64 KiB of request line and headers (and
// net/http's 4 KiB of slack): a form's query just past the service's 64
// KiB is the service's 414, one far past it the server's 431, before the
// handler (loopback only; 2 requests).
func TestHeadersBounded(t *testing.T) {
	s := newService(t, nil, karnak.Config{})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := newServer(s.Handler(), timeouts{header: 5 * time.Second, read: 5 * time.Second, write: 5 * time.Second, idle: 5 * time.Second})
	go srv.Serve(ln) //nolint:errcheck // closed below
	defer srv.Close()
	for _, c := range []struct{ n, code int }{{65 << 10, 414}, {72 << 10, 431}} {
		resp, err := http.Get("http://" + ln.Addr().String() + "/karnak/waittime/predict.html?x=" + strings.Repeat("a", c.n))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != c.code {
			t.Errorf("a query of %d bytes: %d, want %d", c.n, resp.StatusCode, c.code)
		}
	}
}

// The server holds at most -max-conns connections from all clients: every
// loopback address is a client of its own (as each of an IPv6 host's /64s
// is), and 4 connections from each of 127.0.0.1 and 127.0.0.2, with 4 a
// client and 6 in all, were all held; now the last 2 are closed when
// accepted, and one closed makes room for another.
func TestConnsBoundedInAll(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("at most %d\n  connections at once (`-max-conns`", connlimit.DefaultTotal); !strings.Contains(string(readme), want) {
		t.Errorf("README.md does not say the default: %q", want)
	}
	const per, total = 4, 6
	raw, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := newService(t, nil, karnak.Config{})
	ln := connlimit.Listen(raw, per, total, s.ConnClient)
	srv := newServer(s.Handler(), timeouts{header: 5 * time.Second, read: 5 * time.Second, write: 5 * time.Second, idle: 30 * time.Second})
	go srv.Serve(ln) //nolint:errcheck // closed below
	defer srv.Close()
	get := statusOn
	dial := func(from string) net.Conn {
		d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}, Timeout: 5 * time.Second}
		conn, err := d.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Skipf("dialing from %s: %v (a loopback without 127.0.0.2)", from, err)
		}
		t.Cleanup(func() { conn.Close() })
		return conn
	}
	kept := 0
	var first net.Conn
	for _, from := range []string{"127.0.0.1", "127.0.0.2"} {
		for range per {
			conn := dial(from)
			if first == nil {
				first = conn
			}
			if get(conn) == nil {
				kept++
			}
		}
	}
	if kept != total {
		t.Errorf("%d connections from 2 addresses (%d a client): %d answered, want %d in all", 2*per, per, kept, total)
	}
	first.Close()
	for try := 0; ; try++ { // the server sees the close when it next reads
		if get(dial("127.0.0.2")) == nil {
			break
		}
		if try == 30 {
			t.Fatal("after one connection closed, a new one is not answered")
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// statusOn asks for the status on a keep-alive connection: nil when it is
// answered.
func statusOn(conn net.Conn) error {
	fmt.Fprint(conn, "GET /karnak/system/status.txt HTTP/1.1\r\nHost: x\r\n\r\n")
	conn.SetReadDeadline(time.Now().Add(3 * time.Second)) //nolint:errcheck // a deadline on a live conn
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		return err
	}
	io.Copy(io.Discard, resp.Body) //nolint:errcheck // drained
	return resp.Body.Close()
}

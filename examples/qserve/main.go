// Command qserve is a queue prediction and job statistics service in the
// manner of Karnak on TeraGrid (Smith, GCE 2010; spec
// karnak-ibl-service.md), with its command-line client.
//
//	qserve serve -db qserve.db -replay kth=KTH-SP2-1996-2.1-cln.swf.gz -speed 3600
//	qserve ksystems
//	qserve kwouldwait 16 01:00:00 q0@kth
//
// The server keeps, per system, the jobs and queues fed to it (trace
// replays at a speed factor, and live events POSTed to /karnak/events),
// persists every event in an embedded SQLite database before
// acknowledging it (deleting later the ones a restart no longer needs:
// retain.go), and answers REST queries (see Handler) with QBETS
// bounds (package qbets) and instance-based estimates (package qbets/ibl).
// See README.md.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return
		}
		fmt.Fprintln(os.Stderr, "qserve:", err)
		os.Exit(2)
	}
}

const usage = `usage: qserve <command> [flags] [args]

commands:
  serve                                   run the service (qserve serve -h)
  ksystems                                every system: running, waiting, used cores
  ksystem <system>                        a system's queues
  kqueue [queue@]<system>                 current and historical queue statistics
  kjobs <system>                          the waiting jobs
  kwait <system> <jobId>                  predicted wait of a queued job
  kstart <system> <jobId>                 predicted start of a queued job
  kwouldwait <cores> <hh:mm:ss> <queue@system>...   predicted wait of a hypothetical job
  kwouldstart <cores> <hh:mm:ss> <queue@system>...  predicted start of a hypothetical job

Every client command takes -h for its flags.
`

func run(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "-help" || args[0] == "--help" {
		fmt.Fprint(stderr, usage)
		if len(args) == 0 {
			return errors.New("no command")
		}
		return flag.ErrHelp
	}
	if args[0] == "serve" {
		return serve(args[1:], stderr)
	}
	return client(args[0], args[1:], stdout, stderr)
}

// replayFlags collects repeated -replay name=path flags.
type replayFlags []struct{ name, path string }

func (r *replayFlags) String() string { return fmt.Sprint(*r) }

func (r *replayFlags) Set(v string) error {
	name, path, ok := strings.Cut(v, "=")
	if !ok || !validName(name) || path == "" {
		return fmt.Errorf("%q, want system=path.swf[.gz]", v)
	}
	*r = append(*r, struct{ name, path string }{name, path})
	return nil
}

func serve(args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "localhost:8080", "listen address (host:port)")
	db := fs.String("db", "qserve.db", "SQLite event store; created if missing, replayed at start (\"\" = memory only)")
	speed := fs.Float64("speed", 3600, "replay speed: trace seconds per wall-clock second")
	noCache := fs.Bool("nocache", false, "compute every prediction (disable the per-state, per-minute prediction cache)")
	fixed := fs.Int64("now", 0, "fix the service clock at this Unix time for live systems (for tests; 0 = the wall clock)")
	grace := fs.Duration("grace", 5*time.Second, "how long shutdown waits for requests in flight")
	history := fs.Int("history", maxFeed, "arrivals and starts per queue the QBETS predictors learn from (the last `n` to 2n); the store keeps about as much")
	pruneEvery := fs.Int("prune-every", defaultPruneEvery, "delete the events a restart no longer needs every `n` stored events (< 0: never)")
	neighbors := neighborsFlag{}
	fs.Var(neighbors, "neighbors", "IBL neighbour count: `N` for every system, or system=N for one (repeatable; default 56, Karnak's)")
	var replays replayFlags
	fs.Var(&replays, "replay", "replay an SWF trace as a system: `name=path` (repeatable); resumes after the events already stored")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: qserve serve [flags]\n\nRuns the service until SIGINT/SIGTERM. Flags:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("serve: unexpected argument %q", fs.Arg(0))
	}
	logger := log.New(stderr, "qserve ", log.LstdFlags|log.LUTC)
	var st *Store
	if *db != "" {
		var err error
		if st, err = OpenStore(*db); err != nil {
			return err
		}
		defer st.Close()
	}
	t0 := time.Now()
	var clock func() int64
	if *fixed != 0 {
		clock = func() int64 { return *fixed }
	}
	if *history < 1 {
		return fmt.Errorf("history: %d, want ≥ 1", *history)
	}
	svc, err := NewServiceWith(st, clock, Options{History: *history, PruneEvery: *pruneEvery, Neighbors: neighbors, Logf: logger.Printf})
	if err != nil {
		return err
	}
	svc.cache.off = *noCache
	logger.Printf("state rebuilt from %q in %v: %d systems", *db, time.Since(t0).Round(time.Millisecond), len(svc.systemNames()))

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: svc.Handler(), ReadHeaderTimeout: 10 * time.Second}
	var wg sync.WaitGroup
	errc := make(chan error, len(replays)+1)
	for _, r := range replays {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := svc.Replay(ctx, r.path, r.name, *speed, logger.Printf); err != nil && !errors.Is(err, context.Canceled) {
				errc <- err
			}
		}()
	}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			errc <- err
		}
	}()
	logger.Printf("listening on http://%s/karnak/", ln.Addr())
	select {
	case <-ctx.Done():
		logger.Printf("shutting down")
	case err = <-errc:
		logger.Printf("stopping: %v", err)
	}
	stop()
	sctx, cancel := context.WithTimeout(context.Background(), *grace)
	defer cancel()
	if serr := srv.Shutdown(sctx); serr != nil && err == nil {
		err = serr
	}
	wg.Wait()
	return err
}

// kqueue's argument: [queue@]system.
func splitQueue(a string) (queue, system string) {
	if q, s, ok := strings.Cut(a, "@"); ok {
		return q, s
	}
	return allJobs, a
}

func client(cmd string, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet(cmd, flag.ContinueOnError)
	fs.SetOutput(stderr)
	host := os.Getenv("KARNAK_HOST")
	if host == "" {
		host = "localhost"
	}
	port := os.Getenv("KARNAK_PORT")
	if port == "" {
		port = "8080"
	}
	server := fs.String("server", "http://"+net.JoinHostPort(host, port), "service URL (default from $KARNAK_HOST and $KARNAK_PORT)")
	asJSON := fs.Bool("json", false, "print the JSON representation instead of text")
	var conf, quant *int
	var within *string
	operands := map[string]string{
		"ksystems": "", "ksystem": "<system>", "kqueue": "[queue@]<system>", "kjobs": "<system>",
		"kwait": "<system> <jobId>", "kstart": "<system> <jobId>",
		"kwouldwait": "<cores> <hh:mm:ss> <queue@system>...", "kwouldstart": "<cores> <hh:mm:ss> <queue@system>...",
	}
	ops, ok := operands[cmd]
	if !ok {
		fmt.Fprint(stderr, usage)
		return fmt.Errorf("unknown command %q", cmd)
	}
	if strings.HasPrefix(cmd, "kw") || cmd == "kstart" {
		conf = fs.Int("c", defaultConfidence, "confidence in percent, 10–95 (the IBL interval and the QBETS bound)")
		quant = fs.Int("q", defaultQuantile, "QBETS quantile in percent, 1–99")
		within = fs.String("within", "", "also give the probability of starting within this time (hh:mm:ss)")
	}
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: qserve %s [flags] %s\n\nFlags:\n", cmd, ops)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	ext := "txt"
	if *asJSON {
		ext = "json"
	}
	a := fs.Args()
	need := map[string]int{"ksystems": 0, "ksystem": 1, "kqueue": 1, "kjobs": 1, "kwait": 2, "kstart": 2}
	if n, fixed := need[cmd]; fixed && len(a) != n || !fixed && len(a) < 3 {
		fs.Usage()
		return fmt.Errorf("%s: wrong number of arguments", cmd)
	}
	base := strings.TrimSuffix(*server, "/") + "/karnak"
	var req *http.Request
	var err error
	switch cmd {
	case "ksystems":
		req, err = http.NewRequest("GET", base+"/system/status."+ext, nil)
	case "ksystem":
		req, err = http.NewRequest("GET", base+"/system/"+a[0]+"/status."+ext, nil)
	case "kqueue":
		q, s := splitQueue(a[0])
		req, err = http.NewRequest("GET", base+"/system/"+s+"/queue/"+q+"/summary."+ext, nil)
	case "kjobs":
		req, err = http.NewRequest("GET", base+"/system/"+a[0]+"/job/waiting."+ext, nil)
	case "kwait", "kstart":
		what := map[string]string{"kwait": "waittime", "kstart": "starttime"}[cmd]
		u := fmt.Sprintf("%s/system/%s/job/%s/prediction/%s.%s?confidence=%d&quantile=%d", base, a[0], a[1], what, ext, *conf, *quant)
		if *within != "" {
			u += "&within=" + *within
		}
		req, err = http.NewRequest("GET", u, nil)
	default: // kwouldwait, kwouldstart
		what := map[string]string{"kwouldwait": "waittime", "kwouldstart": "starttime"}[cmd]
		if _, err := strconv.ParseInt(a[0], 10, 64); err != nil {
			return fmt.Errorf("cores: %q is not an integer", a[0])
		}
		var b strings.Builder
		fmt.Fprintf(&b, "processors %s\nrequestedWallTime %s\nconfidence %d\nquantile %d\n", a[0], a[1], *conf, *quant)
		if *within != "" {
			fmt.Fprintf(&b, "within %s\n", *within)
		}
		for _, l := range a[2:] {
			q, s, ok := strings.Cut(l, "@")
			if !ok {
				return fmt.Errorf("location: %q, want queue@system", l)
			}
			fmt.Fprintf(&b, "location %s %s\n", s, q)
		}
		req, err = http.NewRequest("POST", base+"/"+what+"/prediction/?format="+ext, strings.NewReader(b.String()))
		if req != nil {
			req.Header.Set("Content-Type", "text/plain")
		}
	}
	if err != nil {
		return err
	}
	resp, err := (&http.Client{Timeout: 30 * time.Second}).Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		return fmt.Errorf("%s: %s", resp.Status, strings.TrimSpace(string(msg)))
	}
	_, err = io.Copy(stdout, resp.Body)
	return err
}

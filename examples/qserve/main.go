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
// It is closed by default: writes need a bearer token, and at its first
// start serve makes a write and an admin token in <db>.tokens (mode
// 0600) and prints them once (tokens.go). See README.md.
package main

import (
	"context"
	"crypto/tls"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"math"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/batchq/batchq/examples/internal/cli"
	"github.com/batchq/batchq/examples/internal/connlimit"
	"github.com/batchq/batchq/examples/internal/errlog"
	"github.com/batchq/batchq/qbets/karnak"
	"github.com/batchq/batchq/swf"
)

func main() { cli.Main(command) }

// command is run as a cli.Command: SIGINT or SIGTERM (ctx) shuts serve
// down gracefully.
func command(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) int {
	return cli.Status("qserve", stderr, run(ctx, args, stdout, stderr))
}

const usage = `usage: qserve <command> [flags] [args]

commands:
  serve                                   run the service (qserve serve -h)
  ksystems                                the systems: running, waiting, used cores (at most 1,000: -after, -before, -limit)
  ksystem <system>                        a system's queues
  kqueue [queue@]<system>                 current and historical queue statistics
  kjobs <system>                          the waiting jobs (at most 1,000: -after, -limit)
  kwait <system> <jobId>                  predicted wait of a queued job
  kstart <system> <jobId>                 predicted start of a queued job
  kwouldwait <cores> <hh:mm:ss> <queue@system>...   predicted wait of a hypothetical job
  kwouldstart <cores> <hh:mm:ss> <queue@system>...  predicted start of a hypothetical job

Every client command takes -h for its flags, -json, and -format text|json|xml|html.
The service's pages are at http://host:port/karnak/ in a browser.
`

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return cli.Usagef("no command")
	}
	// "help" as sweep takes it: qserve help was exit 2, "unknown command".
	if args[0] == "-h" || args[0] == "-help" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprint(stdout, usage)
		return flag.ErrHelp
	}
	if args[0] == "serve" {
		return serve(ctx, args[1:], stdout, stderr)
	}
	return client(args[0], args[1:], stdout, stderr)
}

// replayFlags collects repeated -replay name=path flags.
type replayFlags []struct{ name, path string }

func (r *replayFlags) String() string { return fmt.Sprint(*r) }

func (r *replayFlags) Set(v string) error {
	name, path, ok := strings.Cut(v, "=")
	if !ok || name == "" || path == "" {
		return fmt.Errorf("%q, want system=path.swf[.gz]", v)
	}
	for _, o := range *r {
		if o.name == name { // two feeds of one system failed at start: "job 1 is already known"
			return fmt.Errorf("%q: system %q is replayed twice", v, name)
		}
	}
	*r = append(*r, struct{ name, path string }{name, path})
	return nil
}

// check reads each trace up to its first job line: a path that does not
// open, a directory, an empty log or a malformed first line is an error
// naming the file before serve makes its tokens and database or listens.
// The replay found them only after all three (qserve.db and its tokens
// left behind for a mistyped path).
func (r replayFlags) check() error {
	for _, o := range r {
		if err := firstJob(o.path); err != nil {
			return err
		}
	}
	return nil
}

// firstJob returns nil once path yields a job line, else why not.
func firstJob(path string) error {
	f, err := swf.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	for _, err := range f.All() {
		if err != nil && !strings.Contains(err.Error(), path) { // a *swf.ParseError names the line, not the file
			err = fmt.Errorf("%s: %w", path, err)
		}
		return err
	}
	return fmt.Errorf("%s: no job lines", path)
}

// levelsFlag is serve's -levels: comma-separated q/C pairs in percent.
type levelsFlag []karnak.Level

func (f levelsFlag) String() string {
	parts := make([]string, len(f))
	for i, l := range f {
		parts[i] = l.String()
	}
	return strings.Join(parts, ",")
}

func (f *levelsFlag) Set(v string) error {
	var out []karnak.Level
	for _, p := range strings.Split(v, ",") {
		qs, cs, ok := strings.Cut(p, "/")
		q, err1 := strconv.Atoi(qs)
		c, err2 := strconv.Atoi(cs)
		if !ok || err1 != nil || err2 != nil {
			return fmt.Errorf("%q, want quantile/confidence pairs in percent such as 95/90,50/95", p)
		}
		out = append(out, karnak.Level{Quantile: q, Confidence: c})
	}
	if err := (karnak.Config{Levels: out}).Validate(); err != nil {
		return errors.New(settingError(err))
	}
	*f = out
	return nil
}

// neighborsFlag is serve's repeatable -neighbors: "N" for every system,
// "system=N" for one.
type neighborsFlag map[string]int

func (f neighborsFlag) String() string {
	parts := make([]string, 0, len(f))
	for name, n := range f {
		if name == "" {
			parts = append(parts, strconv.Itoa(n))
		} else {
			parts = append(parts, fmt.Sprintf("%s=%d", name, n))
		}
	}
	slices.Sort(parts)
	return strings.Join(parts, ",")
}

func (f neighborsFlag) Set(v string) error {
	name, num, ok := strings.Cut(v, "=")
	if !ok {
		name, num = "", v
	}
	n, err := strconv.Atoi(num)
	if err != nil {
		return fmt.Errorf("%q, want N or system=N with N an integer", v)
	}
	if err := (karnak.Config{Neighbors: map[string]int{name: n}}).Validate(); err != nil {
		return errors.New(settingError(err))
	}
	// One count a system (and one for every system), as -replay takes a
	// system once: a second replaced the first with no word.
	if old, ok := f[name]; ok {
		if name == "" {
			return fmt.Errorf("%q: the count for every system is given twice (%d, then %d)", v, old, n)
		}
		return fmt.Errorf("%q: system %q's count is given twice (%d, then %d)", v, name, old, n)
	}
	f[name] = n
	return nil
}

// settingError is the message of karnak.Config.Validate's err for a
// flag's usage error: the flag names the setting, so the library's
// "karnak: " prefix goes.
func settingError(err error) string { return strings.TrimPrefix(err.Error(), "karnak: ") }

// timeouts are the http.Server's; every one is set, so that slow bodies
// and idle connections are dropped.
type timeouts struct{ header, read, write, idle time.Duration }

func newServer(h http.Handler, t timeouts) *http.Server {
	return &http.Server{Handler: h, ReadHeaderTimeout: t.header, ReadTimeout: t.read, WriteTimeout: t.write, IdleTimeout: t.idle,
		MaxHeaderBytes: 64 << 10}
}

// loadTLS reads a PEM certificate (chain) and its private key for serve
// -tls-cert/-tls-key; the server then speaks TLS 1.2 or later only.
func loadTLS(certFile, keyFile string) (*tls.Config, error) {
	c, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return nil, fmt.Errorf("serve: -tls-cert %s / -tls-key %s: %w", certFile, keyFile, err)
	}
	return &tls.Config{Certificates: []tls.Certificate{c}, MinVersion: tls.VersionTLS12}, nil
}

// serveOn serves srv on ln until it is shut down: HTTPS when
// srv.TLSConfig is set (loadTLS), else plain HTTP.
func serveOn(srv *http.Server, ln net.Listener) error {
	if srv.TLSConfig != nil {
		return srv.ServeTLS(ln, "", "")
	}
	return srv.Serve(ln)
}

func serve(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("serve")
	addr := fs.String("addr", "localhost:8080", "listen address (host:port)")
	db := fs.String("db", "qserve.db", "SQLite event store; created if missing, replayed at start (\"\" = memory only)")
	speed := fs.Float64("speed", 3600, "replay speed: trace seconds per wall-clock second")
	noCache := fs.Bool("nocache", false, "compute every prediction (disable the per-state, per-minute prediction cache)")
	fixed := fs.Int64("now", 0, "fix the service clock at this Unix time for live systems (for tests; 0 = the wall clock)")
	grace := fs.Duration("grace", 5*time.Second, "how long shutdown waits for requests in flight")
	history := fs.Int("history", 0, "started jobs per queue the QBETS predictor remembers (the last `n` to 9n/8; 0 = 2^19)")
	var levels levelsFlag
	fs.Var(&levels, "levels", "QBETS quantile/confidence `pairs` in percent the predictions answer, e.g. 95/90,50/95 (the -within probability is at the first one's confidence; default "+levelsFlag(karnak.DefaultLevels()).String()+")")
	forecastJobs := fs.Int("max-forecast-jobs", 0, "forecast (forward simulation) only for systems of at most `n` live jobs, each request costing at most one simulation of them per system it names (0 = 2000; < 0: no forecast)")
	pruneEvery := fs.Int("prune-every", 0, "delete the events a restart no longer needs every `n` stored events (0 = 10000, < 0: never)")
	neighbors := neighborsFlag{}
	fs.Var(neighbors, "neighbors", "IBL neighbour count: `N` for every system, or system=N for one (repeatable; default 56, Karnak's)")
	var replays replayFlags
	fs.Var(&replays, "replay", "replay an SWF trace as a system: `name=path` (repeatable, once per system); resumes after the events already stored")
	tokens := fs.String("tokens", "", "bearer tokens `file`: lines \"name secret systems [admin]\" (systems: a,b or *; mode 0600), required on writes; default <db>.tokens, made at the first start with a write and an admin token, printed once; off: no tokens, writes from loopback only")
	cert := fs.String("tls-cert", "", "TLS certificate `file` (PEM); with -tls-key serves HTTPS")
	key := fs.String("tls-key", "", "TLS private key `file` (PEM)")
	rate := fs.Float64("rate", 0, "per-client request limit, requests/s, beyond which 429 (0 = 100; < 0: none)")
	burst := fs.Int("burst", 0, "per-client burst (0 = 1000 at the default rate, else 2×rate)")
	conns := connlimit.AddFlags(fs) // -max-conns, -client-conns
	proxies := fs.String("trusted-proxies", "", "comma-separated `addresses or prefixes` of reverse proxies whose -client-header names the client for the rate limit (a request through one is never loopback's)")
	clientHeader := fs.String("client-header", "", "header a trusted proxy names the client in: X-Forwarded-For (default with -trusted-proxies) or X-Real-IP")
	skew := fs.Duration("max-skew", 5*time.Minute, "how far ahead of the wall clock an event's time may be")
	maxSystems := fs.Int("max-systems", 0, "the most systems the service holds; an event naming one more is a 403 (0 = 256; with -max-queues and -max-live-jobs, every system full must fit in 1 TiB: 19.9 MiB a system, 80 KiB a queue, 1.5 KiB a live job)")
	maxQueues := fs.Int("max-queues", 0, "the most queues a system holds; an event naming one more is a 400 (0 = 64)")
	maxLiveJobs := fs.Int("max-live-jobs", 0, "the most live jobs (submitted, not ended) a system holds; a submission past it is a 400 (0 = 262144)")
	backstep := fs.Duration("max-backstep", 0, "how far before its system's last event an event may be (stored at it, counted); 0 = -max-skew; < 0: strict time order")
	var to timeouts
	fs.DurationVar(&to.header, "header-timeout", 10*time.Second, "time to read a request's headers")
	fs.DurationVar(&to.read, "read-timeout", 30*time.Second, "time to read a whole request, body included")
	fs.DurationVar(&to.write, "write-timeout", 60*time.Second, "time to write a response")
	fs.DurationVar(&to.idle, "idle-timeout", 120*time.Second, "how long an idle keep-alive connection is kept")
	pos, err := cli.ParseArgs(fs, args, "usage: qserve serve [flags]\n\nRuns the service until SIGINT/SIGTERM. Flags:\n", stdout)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return cli.Usagef("serve: unexpected argument %q", pos[0])
	}
	// Files, as for every command's outputs (cli.DashOutput): each made a
	// file named "-" (a database, tokens) in the working directory.
	if err := cli.DashOutput("-db", *db, "the event store is a file (\"\" keeps it in memory)"); err != nil {
		return err
	}
	if err := cli.DashOutput("-tokens", *tokens, "the tokens are a file (off: none)"); err != nil {
		return err
	}
	if (*cert == "") != (*key == "") {
		return cli.Usagef("serve: -tls-cert and -tls-key go together")
	}
	var tlsCfg *tls.Config
	if *cert != "" {
		if tlsCfg, err = loadTLS(*cert, *key); err != nil {
			return err
		}
	}
	// karnak's bounds (History 2^30, Rate, Burst), as -levels and
	// -neighbors are checked: before the service listens (a bad -rate
	// or -speed started it, then stopped it with exit 1).
	// (MaxForecastJobs above its bound was exit 1, after the log's
	// first line.)
	if err := (karnak.Config{History: *history, Rate: *rate, Burst: *burst, MaxForecastJobs: *forecastJobs}).Validate(); err != nil {
		return cli.UsageError{Msg: strings.NewReplacer("MaxForecastJobs", "-max-forecast-jobs").Replace(settingError(err))}
	}
	if !(*speed > 0) || math.IsInf(*speed, 1) {
		return cli.Usagef("speed: %v, want trace seconds per wall-clock second > 0", *speed)
	}
	speedSet := false
	fs.Visit(func(f *flag.Flag) { speedSet = speedSet || f.Name == "speed" })
	if speedSet && len(replays) == 0 {
		// (dropped without a word: no trace to replay at it)
		return cli.Usagef("-speed applies to -replay: give it with -replay name=path")
	}
	// A timeout of 0 is none in net/http: -header-timeout 0
	// -read-timeout 0 let a slow client hold a connection for ever.
	for _, d := range []struct {
		name string
		d    time.Duration
	}{{"header-timeout", to.header}, {"read-timeout", to.read}, {"write-timeout", to.write}, {"idle-timeout", to.idle}} {
		if d.d <= 0 {
			return cli.Usagef("%s: %v, want > 0", d.name, d.d)
		}
	}
	for _, m := range []struct {
		name   string
		n, def int
	}{{"max-systems", *maxSystems, 256}, {"max-queues", *maxQueues, 64}, {"max-live-jobs", *maxLiveJobs, 1 << 18}} {
		if m.n < 0 {
			return cli.Usagef("%s: %d, want ≥ 0 (0 = %d)", m.name, m.n, m.def)
		}
	}
	// Their product too (karnak.Config.Validate): what the feeds may make
	// the service hold at worst must fit in a server's memory (1 TiB), or
	// the counts bound nothing.
	if err := (karnak.Config{MaxSystems: *maxSystems, MaxQueues: *maxQueues, MaxLiveJobs: *maxLiveJobs}).Validate(); err != nil {
		msg := strings.NewReplacer("MaxSystems", "-max-systems", "MaxQueues", "-max-queues", "MaxLiveJobs", "-max-live-jobs").Replace(settingError(err))
		return cli.UsageError{Msg: "serve: " + msg}
	}
	if *fixed < 0 || *fixed > maxNow {
		// (-now 2^63−1 was taken: the service's clock plus -max-skew
		// wrapped, and every event was "-2562047788015215:13:27 ahead".)
		return cli.Usagef("now: %d, want Unix seconds in 0–%d, the service's bound on an event's time (0 = the wall clock)", *fixed, maxNow)
	}
	if *grace < 0 {
		// (-grace -1s was taken as 0: the requests in flight cut off at
		// once, without a word.)
		return cli.Usagef("grace: %v, want ≥ 0 (0: the requests in flight are cut off at once)", *grace)
	}
	logger := log.New(stderr, "qserve ", log.LstdFlags|log.LUTC)
	if *skew <= 0 {
		return cli.Usagef("max-skew: %v, want > 0", *skew)
	}
	if err := replays.check(); err != nil {
		return err
	}
	cfg := karnak.Config{History: *history, Levels: levels, PruneEvery: *pruneEvery, Neighbors: neighbors, Logf: logger.Printf,
		NoCache: *noCache, Rate: *rate, Burst: *burst, MaxSkew: int64(skew.Seconds()), MaxBackstep: int64(backstep.Seconds()),
		ClientHeader: *clientHeader, MaxForecastJobs: *forecastJobs, MaxSystems: *maxSystems,
		MaxQueues: *maxQueues, MaxLiveJobs: *maxLiveJobs}
	if *backstep < 0 {
		cfg.MaxBackstep = -1
	}
	if *proxies != "" {
		cfg.TrustedProxies = strings.Split(*proxies, ",")
	}
	if *fixed != 0 {
		cfg.Now = func() int64 { return *fixed }
	}
	switch *tokens {
	case "off":
		logger.Printf("no tokens (-tokens off): writes from loopback only, no repairs over HTTP")
	case "":
		path := ""
		if *db != "" {
			path = *db + ".tokens"
		}
		if cfg.Tokens, err = defaultTokens(path, stderr); err != nil {
			return err
		}
	default:
		if cfg.Tokens, err = readTokens(*tokens); err != nil {
			return err
		}
	}
	if err := cfg.Validate(); err != nil {
		return err
	}
	var st karnak.Store
	if *db != "" {
		sq, err := OpenStore(*db)
		if err != nil {
			return err
		}
		defer sq.Close()
		st = sq
	}
	svc, err := karnak.New(st, cfg)
	if err != nil {
		return err
	}
	ctx, stop := context.WithCancel(ctx) // stop also ends the replays after an error
	defer stop()
	// Listen at once: until the state is rebuilt the handler answers 503
	// with Retry-After.
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	ln = conns.Wrap(ln, svc.ConnClient)
	srv := newServer(svc.Handler(), to)
	srv.TLSConfig = tlsCfg
	errLog := errlog.New(logger) // net/http's own lines, bounded
	defer errLog.Flush()
	srv.ErrorLog = errLog.Logger()
	errc := make(chan error, len(replays)+2)
	go func() {
		if err := serveOn(srv, ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			errc <- err
		}
	}()
	scheme := "http"
	if tlsCfg != nil {
		scheme = "https"
	}
	logger.Printf("listening on %s://%s/karnak/", scheme, ln.Addr())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t0 := time.Now()
		if err := svc.Load(ctx); err != nil {
			errc <- fmt.Errorf("rebuilding the state from %q: %w", *db, err)
			return
		}
		logger.Printf("state rebuilt from %q in %v", *db, time.Since(t0).Round(time.Millisecond))
		for _, r := range replays {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := svc.Replay(ctx, r.path, r.name, *speed, logger.Printf); err != nil && !errors.Is(err, context.Canceled) {
					errc <- err
				}
			}()
		}
	}()
	select {
	case <-ctx.Done():
		logger.Printf("shutting down")
	case err = <-errc:
		logger.Printf("stopping: %v", err)
	}
	stop() // ends the replays (after a signal, cli.Main lets a second one end the process)
	sctx, cancel := context.WithTimeout(context.Background(), *grace)
	defer cancel()
	// Shutdown stops listening and waits for the requests in flight. A
	// request still running after -grace (a client trickling its body)
	// is cut off: it was not acknowledged, so nothing acknowledged is
	// lost, and a shutdown asked for is not a failure (exit 0).
	if serr := srv.Shutdown(sctx); serr != nil {
		logger.Printf("requests still in flight after -grace %v: closing their connections", *grace)
		srv.Close() //nolint:errcheck // closing is all that is left
	}
	wg.Wait()
	return err
}

// serverURL is the client's -server as the base of the service's paths:
// a bare host:port, the common slip, gets a message naming the form
// wanted rather than url.Parse's.
func serverURL(s string) (string, error) {
	if _, ok := cli.BaseURL(s); !ok {
		hint := "http://host:port"
		if _, _, err := net.SplitHostPort(s); err == nil && !strings.Contains(s, "/") {
			hint = "http://" + s
		}
		return "", cli.Usagef("-server %q: want the service's URL, such as %s", s, hint)
	}
	return strings.TrimSuffix(s, "/") + "/karnak", nil
}

// kqueue's argument: [queue@]system.
func splitQueue(a string) (queue, system string) {
	if q, s, ok := strings.Cut(a, "@"); ok {
		return q, s
	}
	return "all_jobs", a
}

// checkOperands refuses, as usage errors before any request, what the
// service would refuse or misread: an empty name, a location without
// both its queue and its system, cores that are no whole number ≥ 1,
// -c and -q outside their documented ranges (they went to the service
// and came back as a 400, exit 1).
func checkOperands(cmd string, a []string, conf, quant *int) error {
	for _, v := range a {
		if strings.TrimSpace(v) == "" {
			return cli.Usagef("%s: an empty argument", cmd)
		}
	}
	if conf != nil && (*conf < 10 || *conf > 95) {
		return cli.Usagef("-c %d: want a confidence of 10 to 95 percent", *conf)
	}
	if quant != nil && (*quant < 1 || *quant > 99) {
		return cli.Usagef("-q %d: want a quantile of 1 to 99 percent", *quant)
	}
	switch cmd {
	case "kqueue":
		if q, s := splitQueue(a[0]); q == "" || s == "" {
			return cli.Usagef("kqueue: %q, want [queue@]system", a[0])
		}
	case "kwouldwait", "kwouldstart":
		if n, err := strconv.ParseInt(a[0], 10, 64); err != nil || n < 1 {
			return cli.Usagef("cores: %q, want a whole number ≥ 1", a[0])
		}
		for _, l := range a[2:] {
			if q, s, ok := strings.Cut(l, "@"); !ok || q == "" || s == "" {
				return cli.Usagef("location: %q, want queue@system", l)
			}
		}
	}
	return nil
}

func client(cmd string, args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet(cmd)
	host := os.Getenv("KARNAK_HOST")
	if host == "" {
		host = "localhost"
	}
	port := os.Getenv("KARNAK_PORT")
	if port == "" {
		port = "8080"
	}
	server := fs.String("server", "http://"+net.JoinHostPort(host, port), "service URL (default from $KARNAK_HOST and $KARNAK_PORT)")
	asJSON := fs.Bool("json", false, "print the JSON representation (the same as -format json)")
	outFormat := fs.String("format", "text", "representation to print: text, json, xml or html (Karnak's four)")
	var conf, quant, offset, limit *int
	var within, after, before *string
	operands := map[string]string{
		"ksystems": "", "ksystem": "<system>", "kqueue": "[queue@]<system>", "kjobs": "<system>",
		"kwait": "<system> <jobId>", "kstart": "<system> <jobId>",
		"kwouldwait": "<cores> <hh:mm:ss> <queue@system>...", "kwouldstart": "<cores> <hh:mm:ss> <queue@system>...",
	}
	ops, ok := operands[cmd]
	if !ok {
		fmt.Fprint(stderr, usage)
		return cli.Usagef("unknown command %q", cmd)
	}
	if strings.HasPrefix(cmd, "kw") || cmd == "kstart" {
		conf = fs.Int("c", 90, "confidence in percent, 10–95 (the IBL interval and the QBETS bound)")
		quant = fs.Int("q", 95, "QBETS quantile in percent, 1–99")
		within = fs.String("within", "", "also give the probability of starting within this time (hh:mm:ss)")
	}
	if cmd == "kjobs" {
		after = fs.String("after", "", "list the jobs after this `cursor` (<submit time>.<job id>, as the last line's \"next: ?after=\" gives it): the next page, whatever left or arrived since")
		offset = fs.Int("offset", 0, "the first job to list, counted from 0 in submission order (a list that changes between pages shifts: prefer -after)")
		limit = fs.Int("limit", 1000, "the most jobs to list, at most 1,000 (the service's bound)")
	}
	if cmd == "ksystems" {
		after = fs.String("after", "", "list the systems after this `name`, in name order (as the last line's \"next: ?after=\" gives it): the next page")
		before = fs.String("before", "", "list the last systems before this `name`, in name order (as the last line's \"previous: ?before=\" gives it)")
		limit = fs.Int("limit", 1000, "the most systems to list, at most 1,000 (the service's bound)")
	}
	a, err := cli.ParseArgs(fs, args, fmt.Sprintf("usage: qserve %s [flags] %s\n\nFlags:\n", cmd, ops), stdout)
	if err != nil {
		return err
	}
	base, err := serverURL(*server)
	if err != nil {
		return err
	}
	ext := *outFormat
	switch {
	case *asJSON && ext != "text" && ext != "json":
		return cli.Usagef("-json and -format %s: choose one", ext)
	case *asJSON:
		ext = "json"
	case ext == "text":
		ext = "txt"
	case ext == "json" || ext == "xml" || ext == "html":
	default:
		return cli.Usagef("format: %q, want text, json, xml or html", ext)
	}
	need := map[string]int{"ksystems": 0, "ksystem": 1, "kqueue": 1, "kjobs": 1, "kwait": 2, "kstart": 2}
	if n, fixed := need[cmd]; fixed && len(a) != n || !fixed && len(a) < 3 {
		return cli.Usagef("%s: wrong number of arguments (usage: qserve %s [flags] %s)", cmd, cmd, ops)
	}
	if err := checkOperands(cmd, a, conf, quant); err != nil {
		return err
	}
	// The page's bounds, as the service takes them: -limit 0 listed
	// nothing ("none of the 3 systems on this page", and [] under
	// -json, exit 0); -limit -1, 1001 and -offset -1 were the service's
	// 400 naming its query, not the flag.
	if limit != nil && (*limit < 1 || *limit > maxPage) {
		return cli.Usagef("-limit %d: want 1 to %d, the most the service lists on a page", *limit, maxPage)
	}
	if offset != nil && *offset < 0 {
		return cli.Usagef("-offset %d: want ≥ 0 (0: the first waiting job)", *offset)
	}
	// Names go into the URL's path as one segment each: "a/../b" or
	// "1?x=y" asked for another resource than the one named.
	if !strings.HasPrefix(cmd, "kwould") { // (those send a text body)
		for i := range a {
			a[i] = url.PathEscape(a[i])
		}
	}
	var req *http.Request
	switch cmd {
	case "ksystems":
		from := ""
		switch {
		case *after != "" && *before != "":
			return cli.Usagef("-after and -before: choose one")
		case *after != "":
			from = "after=" + url.QueryEscape(*after) + "&"
		case *before != "":
			from = "before=" + url.QueryEscape(*before) + "&"
		}
		req, err = http.NewRequest("GET", fmt.Sprintf("%s/system/status.%s?%slimit=%d", base, ext, from, *limit), nil)
	case "ksystem":
		req, err = http.NewRequest("GET", base+"/system/"+a[0]+"/status."+ext, nil)
	case "kqueue":
		q, s := splitQueue(a[0]) // (escaped: "@" stays as it is)
		req, err = http.NewRequest("GET", base+"/system/"+s+"/queue/"+q+"/summary."+ext, nil)
	case "kjobs":
		from := fmt.Sprintf("offset=%d", *offset)
		if *after != "" {
			if *offset != 0 {
				return cli.Usagef("-after and -offset: choose one")
			}
			from = "after=" + url.QueryEscape(*after)
		}
		req, err = http.NewRequest("GET", fmt.Sprintf("%s/system/%s/job/waiting.%s?%s&limit=%d", base, a[0], ext, from, *limit), nil)
	case "kwait", "kstart":
		what := map[string]string{"kwait": "waittime", "kstart": "starttime"}[cmd]
		u := fmt.Sprintf("%s/system/%s/job/%s/prediction/%s.%s?confidence=%d&quantile=%d", base, a[0], a[1], what, ext, *conf, *quant)
		if *within != "" {
			u += "&within=" + url.QueryEscape(*within)
		}
		req, err = http.NewRequest("GET", u, nil)
	default: // kwouldwait, kwouldstart
		what := map[string]string{"kwouldwait": "waittime", "kwouldstart": "starttime"}[cmd]
		var b strings.Builder
		fmt.Fprintf(&b, "processors %s\nrequestedWallTime %s\nconfidence %d\nquantile %d\n", a[0], a[1], *conf, *quant)
		if *within != "" {
			fmt.Fprintf(&b, "within %s\n", *within)
		}
		for _, l := range a[2:] {
			q, s, _ := strings.Cut(l, "@") // (checked by checkOperands)
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
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 16<<10))
		return fmt.Errorf("%s: %s", resp.Status, errorMessage(resp.Header.Get("Content-Type"), msg))
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer+1))
	if err != nil {
		return err
	}
	if len(body) > maxAnswer {
		return fmt.Errorf("%s: the answer is longer than %d MiB, which no answer of the service's is: not printed", cmd, maxAnswer>>20)
	}
	if _, err := stdout.Write(body); err != nil {
		return err
	}
	if !strings.HasPrefix(cmd, "kwould") {
		if (cmd == "ksystems" || cmd == "kjobs") && (ext == "json" || ext == "xml") {
			pagesHint(stderr, cmd, resp.Header)
		}
		return nil
	}
	// Every location's answer is printed, and a location that got an
	// error makes the exit status 1 (it was 0: partialError).
	if n := failedLocations(ext, body); n != 0 {
		return partialError(n, len(a)-2)
	}
	return nil
}

// maxAnswer bounds the answer the client reads whole before it prints it
// (a kwould answer is read whole to count its failed locations): the
// service's longest is a page of 1,000 systems or waiting jobs (maxPage),
// or 100 predictions (maxLocations), far less. A server that sent an
// endless answer filled the client's memory (io.ReadAll) until the 30 s
// timeout (476 MiB on loopback: TestWouldAnswerBounded), or, to the other
// commands, which streamed it, standard output (TestAnswerBounded).
const maxAnswer = 16 << 20

// maxNow is -now's bound: karnak's on an event's time (2^40 s, Unix
// seconds in the year 36812).
const maxNow = 1 << 40

// maxPage is -limit's bound: the service's on a page of systems or of
// waiting jobs.
const maxPage = 1000

// pagesHint tells a script reading ksystems' or kjobs' JSON or XML (the service's
// representation, printed as it is: a script that reads its array keeps
// working) where the other pages are, as the text's last line does: on
// stderr, when the list has more than the page, one line with the
// whole list's length (X-Total-Count) and the flags of the next and
// previous pages (from Link), for example
//
//	ksystems: total 5000; next: -after sys0999 -limit 1000
//
// Nothing is printed for a page that holds the whole list.
func pagesHint(stderr io.Writer, cmd string, h http.Header) {
	total := h.Get("X-Total-Count")
	if total == "" {
		return
	}
	line := cmd + ": total " + total
	for _, p := range []struct{ word, rel string }{{"next", "next"}, {"previous", "prev"}} {
		for _, l := range strings.Split(h.Get("Link"), ",") {
			u, r, _ := strings.Cut(strings.TrimSpace(l), ";")
			if strings.TrimSpace(r) != `rel="`+p.rel+`"` {
				continue
			}
			pu, err := url.Parse(strings.Trim(u, "<>"))
			if err != nil {
				continue
			}
			q := pu.Query()
			line += "; " + p.word + ":"
			for _, k := range []string{"after", "before", "limit"} {
				if q.Has(k) {
					line += " -" + k + " " + q.Get(k)
				}
			}
		}
	}
	if !strings.Contains(line, ";") {
		return // one page: the whole list
	}
	fmt.Fprintln(stderr, line)
}

// Command slurmfeed feeds a live Slurm cluster to a karnak service (package
// qbets/karnak/slurmfeed) and compares, job by job, Slurm's own expected
// start (squeue --start) with the service's QBETS bound and IBL estimate.
//
//	slurmfeed -service http://127.0.0.1:8080 -cursor feed.json -system mycluster
//	slurmfeed -listen 127.0.0.1:8080 -duration 3m -record live.jsonl.gz   # an in-process service
//	slurmfeed -replay testdata/live.jsonl.gz -readme examples/slurmfeed/README.md
//
// See README.md.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"log"
	"net"
	"net/http"
	"net/netip"
	"os"
	"strings"
	"time"

	"github.com/batchq/batchq/examples/internal/cli"
	"github.com/batchq/batchq/examples/internal/connlimit"
	"github.com/batchq/batchq/examples/internal/errlog"
	"github.com/batchq/batchq/internal/progress"
	"github.com/batchq/batchq/internal/sysname"
	"github.com/batchq/batchq/qbets/karnak"
	"github.com/batchq/batchq/qbets/karnak/slurmfeed"
)

func main() { cli.Main(command) }

// command is run as a cli.Command: SIGINT or SIGTERM (ctx) stops the feed.
func command(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) int {
	return cli.Status("slurmfeed", stderr, run(ctx, args, stdout, stderr))
}

const usage = `usage: slurmfeed [flags]

Feeds a Slurm cluster (or a -replay recording) to a karnak service and
compares Slurm's expected starts with the service's predictions.

`

type options struct {
	cfg                    slurmfeed.Config
	service, token, listen string
	duration               time.Duration
	jsonOut                bool
	bar, barSet            bool // -progress, and whether the command line gave it
	record, replay, readme string
	conns                  *connlimit.Flags // -max-conns, -client-conns: -listen's bounds
}

// checkService refuses a -service that is not an http or https URL with
// a host (a bare host:port was taken, and every post failed), and a token
// sent over http:// to another host: a bearer token crosses the network
// in clear there, for anyone on the path to read and then feed the
// service as this site (TestServiceTokenInClear). Serve the service over
// TLS (qserve serve -tls-cert) or reach it through a tunnel to a loopback
// address.
func checkService(service, token string) error {
	u, ok := cli.BaseURL(service)
	if !ok {
		return cli.Usagef("-service: %q, want http(s)://host:port", service)
	}
	if h := u.Hostname(); token != "" && u.Scheme == "http" && h != "localhost" {
		if a, err := netip.ParseAddr(h); err != nil || !a.IsLoopback() {
			return cli.Usagef("-service %s with a token: over http:// to another host the token crosses the network in clear; use https:// (qserve serve -tls-cert) or a loopback address (an SSH tunnel)", service)
		}
	}
	return nil
}

func parse(args []string, stdout io.Writer) (*options, error) {
	o := &options{}
	fs := cli.NewFlagSet("slurmfeed")
	fs.StringVar(&o.cfg.System, "system", "slurm", "the service's `NAME` of the cluster")
	fs.DurationVar(&o.cfg.Poll, "poll", 10*time.Second, "time between polls")
	fs.DurationVar(&o.cfg.Delay, "delay", 0, "reorder delay: events are sent once this old (default 2×poll)")
	fs.DurationVar(&o.cfg.Keep, "keep", time.Hour, "how long ended jobs are remembered (≥ Slurm's MinJobAge)")
	fs.DurationVar(&o.cfg.Since, "since", 0, "on a first start, also feed the jobs that ended this long before")
	fs.StringVar(&o.cfg.Cursor, "cursor", "", "state `FILE` (what was sent, batches in flight, scores); required with -service")
	fs.IntVar(&o.cfg.Quantile, "quantile", 50, "quantile of the QBETS bound, percent")
	fs.IntVar(&o.cfg.Confidence, "confidence", 90, "confidence of the QBETS bound, percent")
	fs.DurationVar(&o.cfg.ProbeEvery, "probe", 0, "time between probes of Slurm's own estimate for hypothetical jobs (sbatch --test-only; default 5m, at most 30m; negative: none)")
	fs.StringVar(&o.service, "service", "", "`URL` of a karnak service (examples/qserve); default: one in this process")
	fs.StringVar(&o.token, "token", os.Getenv("SLURMFEED_TOKEN"), "bearer token for -service (default $SLURMFEED_TOKEN)")
	fs.StringVar(&o.listen, "listen", "", "serve the in-process service and /slurmfeed/report.json at `ADDR` (keep it on loopback: no auth)")
	o.conns = connlimit.AddFlags(fs) // as qserve serve's
	fs.DurationVar(&o.duration, "duration", 0, "stop after this long (default: until interrupted)")
	fs.BoolVar(&o.jsonOut, "json", false, "print the report as JSON")
	fs.StringVar(&o.record, "record", "", "write every command's output to `FILE` (JSON lines, gzip) for -replay")
	fs.StringVar(&o.replay, "replay", "", "poll a recording `FILE` instead of Slurm, on its clock, into an in-process service")
	fs.StringVar(&o.readme, "readme", "", "write the side-by-side figures into `FILE` between its slurmfeed markers")
	fs.BoolVar(&o.bar, "progress", false, "with -replay: progress bar on stderr for runs longer than a second (default: when stderr is a terminal, not with -json)")
	pos, err := cli.ParseArgs(fs, args, usage, stdout)
	if err != nil {
		return nil, err
	}
	var zero string     // a flag given 0 that the collector takes as its default
	var connFlag string // -max-conns or -client-conns, which bound -listen's server alone
	tokenSet := false
	fs.Visit(func(f *flag.Flag) {
		o.barSet = o.barSet || f.Name == "progress"
		switch f.Name {
		case "max-conns", "client-conns":
			connFlag = f.Name
		case "token":
			tokenSet = true // (not $SLURMFEED_TOKEN, which may be set for other runs)
		case "quantile", "confidence", "keep":
			// The Config's zero value is the default: -quantile 0 ran
			// at 50, -keep 0 kept ended jobs an hour, without a word.
			if zero == "" && (f.Value.String() == "0" || f.Value.String() == "0s") {
				zero = f.Name
			}
		}
	})
	switch {
	case zero != "":
		return nil, cli.Usagef("-%s 0 would be taken as its default, %s: give another value, or leave the flag out", zero, fs.Lookup(zero).DefValue)
	case o.duration < 0:
		// (it ran until interrupted, as without -duration)
		return nil, cli.Usagef("-duration %v: want > 0, or leave it out to run until interrupted", o.duration)
	case len(pos) > 0:
		return nil, cli.UsageError{Msg: "no arguments expected, got " + strings.Join(pos, " ")}
	case tokenSet && o.service == "":
		// (-token with the in-process service was dropped without a
		// word: that service takes no token.)
		return nil, cli.UsageError{Msg: "-token is the remote service's (-service): the in-process service takes none"}
	case connFlag != "" && o.listen == "":
		// (dropped without a word: there was no server to bound)
		return nil, cli.Usagef("-%s bounds -listen's server: give it with -listen", connFlag)
	case o.service != "" && (o.listen != "" || o.replay != ""):
		return nil, cli.UsageError{Msg: "-service feeds a remote service: -listen and -replay use one in this process"}
	case o.service != "" && checkService(o.service, o.token) != nil:
		return nil, checkService(o.service, o.token)
	case o.service != "" && o.cfg.Cursor == "":
		return nil, cli.UsageError{Msg: "-service needs -cursor: without it a restart would feed the same jobs again under new batch ids"}
	case o.replay != "" && (o.record != "" || o.cfg.Cursor != "" || o.listen != ""):
		return nil, cli.UsageError{Msg: "-replay takes no -record, -cursor or -listen"}
	case o.record == "-" || o.cfg.Cursor == "-":
		// Files, never standard output (which carries the report): both
		// made a file named "-" in the working directory.
		return nil, cli.Usagef("-record -, -cursor -: give a file name (./- for one named -)")
	case o.cfg.Poll <= 0:
		return nil, cli.UsageError{Msg: "-poll must be > 0"}
	case o.cfg.System == "":
		return nil, cli.UsageError{Msg: "-system: empty, want the service's name of the cluster"}
	case !sysname.Valid(o.cfg.System):
		// the service's rule: a name it refuses would have every batch
		// rejected while the command ran on
		return nil, cli.Usagef("-system: %q is not a name (%s) (the service refuses a batch naming it)", o.cfg.System, sysname.Rule)
	}
	// The collector's own checks of the other settings (-quantile, -probe, …).
	probe := o.cfg
	probe.Service = &slurmfeed.Client{}
	if err := probe.Validate(); err != nil {
		// Named by their flags, not the Config's fields ("slurmfeed:
		// Quantile: 100, want 1–99" for -quantile 100).
		return nil, cli.UsageError{Msg: strings.NewReplacer("slurmfeed: ", "", "Quantile:", "-quantile", "Confidence:", "-confidence",
			"ProbeEvery:", "-probe", "Poll, Delay, Keep and Since", "-poll, -delay, -keep and -since").Replace(err.Error())}
	}
	return o, nil
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	o, err := parse(args, stdout)
	if err != nil {
		return err
	}
	if o.readme != "" {
		if _, _, _, err := readReadme(o.readme); err != nil {
			return err
		}
	}
	logger := log.New(stderr, "", log.LstdFlags)
	o.cfg.Logf = logger.Printf
	if o.duration > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, o.duration)
		defer cancel()
	}

	var rec *recording
	if o.replay != "" {
		if rec, err = readRecording(o.replay); err != nil {
			return err
		}
		o.cfg.Runner, o.cfg.Now = rec, rec.clock
		o.cfg.Logf = func(string, ...any) {} // counted in the report
		if !rec.probed() {
			o.cfg.ProbeEvery = -1 // recorded before the collector probed Slurm's estimates
		}
	}
	if o.record != "" {
		r, err := newRecorder(o.record, slurmfeed.Exec{})
		if err != nil {
			return err
		}
		defer func() {
			if err := r.Close(); err != nil {
				logger.Printf("recording %s: %v", o.record, err)
			}
		}()
		o.cfg.Runner, o.cfg.Now = r, r.clock
	}
	var svc *karnak.Service
	if o.service != "" {
		o.cfg.Service = &slurmfeed.Client{URL: o.service, Token: o.token}
	} else {
		kc := karnak.Config{}
		if rec != nil {
			kc.Now = func() int64 { return rec.clock().Unix() }
		}
		if svc, err = karnak.New(nil, kc); err != nil {
			return err
		}
		if err := svc.Load(ctx); err != nil {
			return err
		}
		o.cfg.Service = svc
	}
	c, err := slurmfeed.New(o.cfg)
	if err != nil {
		return err
	}
	if o.listen != "" {
		stopServe, _, err := serve(o.listen, o.conns, svc, c, logger)
		if err != nil {
			return err
		}
		defer stopServe()
	}
	if rec != nil {
		bar := progress.New(stderr, o.barOn(progress.IsTerminal(stderr)), 1)
		bar.Stage("replay", 1)
		rec.replay(ctx, c, func(done, total int) { bar.Set(float64(done) / float64(total)) })
		bar.Done()
	} else if err := c.Run(ctx); err != nil {
		return err
	}
	r := c.Report()
	// The report first: a -readme that fails now (changed since the
	// check above) loses no figure.
	if o.jsonOut {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		err = enc.Encode(toJSON(&r))
	} else {
		_, err = io.WriteString(stdout, summary(&r))
	}
	if err == nil && o.readme != "" {
		err = writeReadme(o.readme, &r, o.cfg)
	}
	return err
}

// newServer is -listen's server: every timeout set, and headers bounded
// as examples/qserve bounds them (64 KiB; net/http's default, 1 MiB,
// was read whole before the service's own bounds).
func newServer(h http.Handler) *http.Server {
	return &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 10 * time.Second,
		WriteTimeout: 30 * time.Second, IdleTimeout: time.Minute, MaxHeaderBytes: 64 << 10}
}

// serve serves the in-process service and the collector's report on addr
// until the returned function is called, holding at most the
// connections conns allows (as qserve serve does: the report and the
// service's pages are as open as qserve's), and says where it listens.
func serve(addr string, conns *connlimit.Flags, svc *karnak.Service, c *slurmfeed.Collector, logger *log.Logger) (func(), net.Addr, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, nil, err
	}
	stop := serveOn(ln, conns, svc, c, logger)
	logger.Printf("serving the service and /slurmfeed/report.json at http://%s", ln.Addr())
	if w := openWarning(ln.Addr()); w != "" {
		logger.Print(w)
	}
	return stop, ln.Addr(), nil
}

// openWarning is the line said when -listen's address is not loopback's
// (0.0.0.0, [::], a host's own address): the in-process service has no
// token, so its pages, its forecasts and the collector's report are open
// to whoever reaches the address; its writes stay loopback's alone (the
// service without tokens refuses them from any other client, 403). A
// -listen 0.0.0.0 said nothing of it. "" on loopback.
func openWarning(addr net.Addr) string {
	if a, ok := addr.(*net.TCPAddr); ok && a.IP.IsLoopback() {
		return ""
	}
	return "warning: -listen " + addr.String() + " is not a loopback address: the service's pages and forecasts and /slurmfeed/report.json are open to the network, without a token (writes are taken from loopback only); keep -listen on 127.0.0.1, or use examples/qserve, which has tokens, and -service"
}

// serveOn is serve on a listener.
func serveOn(ln net.Listener, conns *connlimit.Flags, svc *karnak.Service, c *slurmfeed.Collector, logger *log.Logger) (stop func()) {
	ln = conns.Wrap(ln, svc.ConnClient)
	mux := http.NewServeMux()
	mux.Handle("/karnak/", svc.Handler())
	mux.HandleFunc("GET /slurmfeed/report.json", reportHandler(c.Report))
	srv := newServer(mux)
	// net/http's own lines, bounded as qserve serve's (errlog): they went
	// to the standard logger, and a client writes them at will. A client
	// that holds connections past the process's file limit (below
	// -max-conns at a common ulimit -n of 1,024) fails every accept, each
	// a line ("http: Accept error: … too many open files; retrying in
	// 5ms"): one a second while it holds them, and more as it lets some
	// go and takes them again, since each accept that succeeds starts
	// the retry's delay again at 5 ms (TestListenErrorLogBounded).
	errLog := errlog.New(logger)
	srv.ErrorLog = errLog.Logger()
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			logger.Printf("serve: %v", err)
		}
	}()
	return func() { srv.Close(); errLog.Flush() }
}

// barOn reports whether -replay draws its bar, as cli.ProgressOn decides
// for the other commands: as -progress says, else on a terminal but not
// under -json, whose output is for scripts (the bar was drawn whenever
// stderr was a terminal, -json or not, and no flag turned it off).
func (o *options) barOn(terminal bool) bool {
	if o.barSet {
		return o.bar
	}
	return terminal && !o.jsonOut
}

package slurmfeed

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"time"

	"github.com/batchq/batchq/internal/sysname"
	"github.com/batchq/batchq/qbets/karnak"
)

// Runner runs a Slurm command and returns its standard output. The
// collector runs `squeue --json`, `sacct --json …`, `scontrol show
// partition --oneliner` and `sbatch --test-only …`, which answers on
// standard error: for sbatch, Run returns standard output and standard
// error (Exec does). A test gives it recorded outputs instead.
type Runner interface {
	Run(ctx context.Context, name string, args ...string) ([]byte, error)
}

// Service is what the collector needs of a karnak service: *karnak.Service
// in the same process, or a Client over HTTP.
type Service interface {
	IngestBatch(batch string, evs []karnak.Event) (karnak.Ack, error)
	PredictJob(system string, id int64, quantile, confidence int, within int64) (karnak.Prediction, error)
}

// Config is the collector's settings. Service is required; the zero value
// of every other field means the default shown.
type Config struct {
	// System is the service's name of the cluster ("slurm").
	System string
	// Service receives the events and answers the predictions.
	Service Service
	// Runner runs the Slurm commands; nil runs them (os/exec) with the
	// process's environment (SLURM_CONF and PATH).
	Runner Runner
	// Cursor is the file of the collector's state (what was sent, the
	// batch in flight, the predictions and their scores), rewritten
	// atomically after every change; "" keeps it in memory only, so that a
	// restart starts a new feed.
	Cursor string
	// Poll is the time between two polls (10 s).
	Poll time.Duration
	// Delay is the reorder delay: an event is sent once it is Delay old,
	// so that the events of one poll and of the next go out in time order
	// (2·Poll).
	Delay time.Duration
	// Keep is how long an ended job is remembered, so that squeue's and
	// sacct's later records of it are recognised (1 h; at least Slurm's
	// MinJobAge).
	Keep time.Duration
	// Since, on a first start (no cursor), also feeds the jobs that ended
	// up to Since before it (0: only the jobs alive at the first poll).
	Since time.Duration
	// Quantile and Confidence of the QBETS bound asked for every waiting
	// job (50 and 90: the bound on the median, comparable with the point
	// estimates of Slurm and IBL; Karnak's own default is 95 and 90).
	Quantile, Confidence int
	// ProbeEvery is the time between two rounds of probes: Slurm's own
	// estimate of when a hypothetical job would start (`sbatch
	// --test-only`) for each of a few shapes in each partition, sent to
	// the service as "estimate" events, which it shows beside its
	// predictions (5 min, at most 30; < 0: no probes). The estimate is
	// for a job of the collector's user and default account.
	ProbeEvery time.Duration
	// ProbeCores and ProbeWalls are the shapes probed, those within a
	// partition's limits (nil: 1 core, powers of 2 and the partition's
	// CPUs, at most 8 sizes; 10 minutes, an hour and the partition's time
	// limit). At most 16 and 8; wall times in whole minutes. A round
	// asks at most 64 shapes, the rest at the next.
	ProbeCores []int64
	ProbeWalls []time.Duration
	// Now is the clock (time.Now).
	Now func() time.Time
	// Logf reports errors and skipped records as they happen (nil: none;
	// they are counted in the Report either way).
	Logf func(format string, a ...any)
}

// Validate reports the first bad setting, naming it.
func (c Config) Validate() error {
	switch {
	case c.Service == nil:
		return errors.New("slurmfeed: Service is required")
	case c.Poll < 0 || c.Delay < 0 || c.Keep < 0 || c.Since < 0:
		return errors.New("slurmfeed: Poll, Delay, Keep and Since must be ≥ 0")
	case c.Quantile != 0 && (c.Quantile < 1 || c.Quantile > 99):
		return fmt.Errorf("slurmfeed: Quantile: %d, want 1–99", c.Quantile)
	case c.Confidence != 0 && (c.Confidence < 10 || c.Confidence > 95):
		return fmt.Errorf("slurmfeed: Confidence: %d, want 10–95", c.Confidence)
	case c.ProbeEvery > 30*time.Minute:
		return fmt.Errorf("slurmfeed: ProbeEvery: %v, at most 30m (the service shows no estimate older than an hour)", c.ProbeEvery)
	case len(c.ProbeCores) > 16 || len(c.ProbeWalls) > 8:
		return fmt.Errorf("slurmfeed: ProbeCores, ProbeWalls: %d and %d shapes, at most 16 and 8", len(c.ProbeCores), len(c.ProbeWalls))
	}
	for i, n := range c.ProbeCores {
		if n < 1 || n > unlimitedWall {
			return fmt.Errorf("slurmfeed: ProbeCores[%d]: %d, want ≥ 1", i, n)
		}
	}
	for i, w := range c.ProbeWalls {
		if w < time.Minute || w > 366*24*time.Hour {
			return fmt.Errorf("slurmfeed: ProbeWalls[%d]: %v, want 1m–366 days", i, w)
		}
	}
	if c.System != "" {
		if err := checkSystem(c.System); err != nil {
			return fmt.Errorf("slurmfeed: System: %v", err)
		}
	}
	return nil
}

// checkSystem applies the service's own rule for a system name, the one
// it checks every event against (a system it refuses has every batch
// rejected): internal/sysname holds it for both.
func checkSystem(name string) error {
	if !sysname.Valid(name) {
		return fmt.Errorf("%q is not a name (%s)", name, sysname.Rule)
	}
	return nil
}

func (c *Config) fill() {
	if c.System == "" {
		c.System = "slurm"
	}
	if c.Runner == nil {
		c.Runner = Exec{}
	}
	if c.Poll == 0 {
		c.Poll = 10 * time.Second
	}
	if c.Delay == 0 {
		c.Delay = 2 * c.Poll
	}
	if c.Keep == 0 {
		c.Keep = time.Hour
	}
	if c.Quantile == 0 {
		c.Quantile = 50
	}
	if c.Confidence == 0 {
		c.Confidence = 90
	}
	if c.ProbeEvery == 0 {
		c.ProbeEvery = 5 * time.Minute
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.Logf == nil {
		c.Logf = func(string, ...any) {}
	}
}

// maxOutput bounds what one Slurm command may print (squeue --json of a
// large site is tens of megabytes).
const maxOutput = 1 << 30

// commandTimeout bounds one Slurm command.
const commandTimeout = 2 * time.Minute

// Exec is the Runner that runs the commands (os/exec), each for at most two
// minutes and 1 GiB of output, with the process's environment (SLURM_CONF,
// PATH). A command that fails is an error quoting the start of its stderr.
// sbatch runs with SLURM_TIME_FORMAT=%s (times as Unix seconds, whatever
// the time zone), and its output is followed by the first 4 KiB of its
// standard error, where `sbatch --test-only` answers.
type Exec struct{}

func (Exec) Run(ctx context.Context, name string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, commandTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	stderr := limitedBuffer{max: 256}
	if name == "sbatch" {
		cmd.Env = append(os.Environ(), "SLURM_TIME_FORMAT=%s")
		stderr.max = 4096
	}
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	out, rerr := io.ReadAll(io.LimitReader(stdout, maxOutput+1))
	if rerr != nil || len(out) > maxOutput {
		cancel() // it may be blocked writing the rest
	}
	werr := cmd.Wait()
	switch {
	case rerr != nil:
		return nil, fmt.Errorf("%s: %v", name, rerr)
	case len(out) > maxOutput:
		return nil, fmt.Errorf("%s: more than %d bytes of output", name, maxOutput)
	case werr != nil:
		return nil, fmt.Errorf("%s: %v: %s", name, werr, quote(string(stderr.b)))
	case name == "sbatch":
		return append(out, stderr.b...), nil
	}
	return out, nil
}

// limitedBuffer keeps the first max bytes written to it.
type limitedBuffer struct {
	b   []byte
	max int
}

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if n := l.max - len(l.b); n > 0 {
		l.b = append(l.b, p[:min(n, len(p))]...)
	}
	return len(p), nil
}

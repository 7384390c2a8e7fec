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
	"os"
	"strings"
	"sync"
	"time"

	"github.com/batchq/batchq/internal/inflate"
	"github.com/batchq/batchq/qbets/karnak/slurmfeed"
)

// A recording is what the Slurm commands printed at every poll of a live
// run, as JSON lines (gzip): one line per command, with the poll's clock.
// An output that is JSON (squeue --json, sacct --json) is kept compacted:
// the same data without its indentation, which the collector's parse
// ignores (a third of the gzip size of the live forecast run's).
// -replay runs the collector over it on the recorded clock, so that the
// figures of a live run are reproduced, and pinned by a test, without Slurm.
type recLine struct {
	Poll int      `json:"poll"`
	Time int64    `json:"time"` // the collector's clock at the poll, Unix seconds
	Cmd  []string `json:"cmd"`
	Out  string   `json:"out"`
	Err  string   `json:"err,omitempty"`
}

// recorder runs the commands and writes what they print.
type recorder struct {
	mu   sync.Mutex
	next slurmfeed.Runner
	gz   *gzip.Writer
	f    *os.File
	enc  *json.Encoder
	poll int
	now  int64
	err  error
}

func newRecorder(path string, next slurmfeed.Runner) (*recorder, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	gz, _ := gzip.NewWriterLevel(f, gzip.BestCompression) // (a valid level: no error)
	return &recorder{next: next, gz: gz, f: f, enc: json.NewEncoder(gz), poll: -1}, nil
}

// clock is the collector's clock: it also starts a new poll in the recording
// (the collector reads it once per poll).
func (r *recorder) clock() time.Time {
	t := time.Now()
	r.mu.Lock()
	r.poll++
	r.now = t.Unix()
	r.mu.Unlock()
	return t
}

// polled is the poll under way (or the last one), from 0; −1 before the
// first.
func (r *recorder) polled() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.poll
}

func (r *recorder) Run(ctx context.Context, name string, args ...string) ([]byte, error) {
	out, err := r.next.Run(ctx, name, args...)
	l := recLine{Cmd: append([]string{name}, args...), Out: string(out)}
	var compact bytes.Buffer
	if json.Valid(out) && json.Compact(&compact, out) == nil {
		l.Out = compact.String()
	}
	if err != nil {
		l.Err = err.Error()
	}
	r.mu.Lock()
	l.Poll, l.Time = r.poll, r.now
	if r.err == nil {
		r.err = r.enc.Encode(&l)
	}
	r.mu.Unlock()
	return out, err
}

func (r *recorder) Close() error {
	err := r.err
	if e := r.gz.Close(); err == nil {
		err = e
	}
	if e := r.f.Close(); err == nil {
		err = e
	}
	return err
}

// recording is a recording read back: the polls in order.
type recording struct {
	polls [][]recLine
	cur   int // the poll being replayed
	used  int // commands of it answered
}

// maxRecTime bounds a recorded poll's time: the karnak service's bound
// on an event's time (2^40 s, the year 36812).
const maxRecTime = 1 << 40

// maxRecording bounds a recording's size once decompressed.
const maxRecording = 256 << 20

func readRecording(path string) (*recording, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// Plain or gzip, told by its magic bytes: a recording gunzipped to be
	// read replays as it is; a gzip cut short says "truncated".
	in, closers, err := inflate.Prefix(f, path)
	if err != nil {
		return nil, err
	}
	defer func() {
		for i := len(closers) - 1; i >= 0; i-- {
			closers[i].Close()
		}
	}()
	sc := bufio.NewScanner(io.LimitReader(in, maxRecording))
	sc.Buffer(nil, 64<<20)
	rec := &recording{}
	last := -1
	for n := 1; sc.Scan(); n++ {
		var l recLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			// A line cut by a truncated gzip is the read error's doing.
			if !sc.Scan() && sc.Err() != nil {
				return nil, sc.Err()
			}
			return nil, fmt.Errorf("%s: line %d: %v", path, n, err)
		}
		switch {
		case len(l.Cmd) == 0:
			return nil, fmt.Errorf("%s: line %d: cmd: empty", path, n)
		case l.Poll < 0:
			// The recorder numbers polls from 0: poll -1, equal to
			// last's start, filed a line into no poll (a panic).
			return nil, fmt.Errorf("%s: line %d: poll: %d is not a poll number (a recording numbers its polls from 0)", path, n, l.Poll)
		case l.Time < 0 || l.Time > maxRecTime:
			// The poll's clock, which the replay runs on: 2^63 − 1 was
			// read, every event then outside the service's times, every
			// batch rejected and Slurm's estimates reported "at" it.
			return nil, fmt.Errorf("%s: line %d: time: %d, want Unix seconds in 0–%d (the recorder writes the clock at the poll)", path, n, l.Time, int64(maxRecTime))
		case l.Poll < last:
			return nil, fmt.Errorf("%s: line %d: poll: %d after poll %d", path, n, l.Poll, last)
		case l.Poll > last: // a poll that failed before its commands has no lines
			rec.polls = append(rec.polls, nil)
			last = l.Poll
		}
		rec.polls[len(rec.polls)-1] = append(rec.polls[len(rec.polls)-1], l)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(rec.polls) == 0 {
		return nil, fmt.Errorf("%s: no polls", path)
	}
	return rec, nil
}

// clock is the recorded clock of the poll being replayed.
func (r *recording) clock() time.Time { return time.Unix(r.polls[r.cur][0].Time, 0) }

// probed reports whether the recording holds probes of Slurm's estimates
// (sbatch --test-only): then the replay probes as the live run did.
func (r *recording) probed() bool {
	for _, p := range r.polls {
		for _, l := range p {
			if l.Cmd[0] == "sbatch" {
				return true
			}
		}
	}
	return false
}

// Run answers with the poll's next recorded command, which must be the
// same program (its arguments may differ: sacct's window is a time).
func (r *recording) Run(_ context.Context, name string, args ...string) ([]byte, error) {
	p := r.polls[r.cur]
	if r.used >= len(p) {
		return nil, fmt.Errorf("replay: poll %d ran %s beyond the %d commands recorded", r.cur, name, len(p))
	}
	l := p[r.used]
	r.used++
	if l.Cmd[0] != name {
		return nil, fmt.Errorf("replay: poll %d: ran %s %s, the recording has %s", r.cur, name, strings.Join(args, " "), strings.Join(l.Cmd, " "))
	}
	if l.Err != "" {
		return []byte(l.Out), errors.New(l.Err)
	}
	return []byte(l.Out), nil
}

// replay runs one collector poll per recorded poll.
func (r *recording) replay(ctx context.Context, c *slurmfeed.Collector, progress func(done, total int)) {
	for r.cur = range r.polls {
		r.used = 0
		c.Poll(ctx) // a failure is counted in the report, as it was live
		if progress != nil {
			progress(r.cur+1, len(r.polls))
		}
	}
}

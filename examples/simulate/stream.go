package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/bits"
	"os"
	"time"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// The streaming path: when the report needs no job list (no -out,
// -jobs-out, -check, -nodes or -slurm-conf; none of the options whose
// report counts look at each record: -kill, -compat), the command reads
// the trace a piece at a time, loads each piece into a sched.Sim that
// keeps no records (Config.SummaryOnly) and runs it up to just before
// the latest submit time read. Memory is then O(queue) plus the Summary's
// log of about 20 bytes a job and the logged and simulated waits, instead
// of every line and record; the gzip, the parse and the simulation
// overlap in one pass over the file.
//
// The schedule is the one a whole load gives as long as every line comes
// after the simulated instant and job numbers rise (a line earlier, or a
// number not above the previous one, would be sorted in or rejected as a
// duplicate by a whole load): on such a trace the command starts again
// and reads it whole (errRestart). Jobs without an estimate are the other
// case: they get the largest estimate of the whole log (S6), known only
// at its end. At the first one, the command starts again if it has read
// fewer than holdAfter lines; past that, what it read would be read and
// simulated again, so instead it loads the rest of the trace without
// running until the end ("holds"), which gives the same schedule and
// holds every line and record from there on, as the whole path does.
// (Holding from the start costs more than a whole read: LANL-CM5, whose
// first such line is its 61st, took 13% more CPU and 27% more memory.)

// streamPiece is the number of lines loaded at a time.
const streamPiece = 4096

// holdAfter is the number of lines read past which the first job without
// an estimate makes the command hold rather than start again.
const holdAfter = 4 * streamPiece

// errRestart: the trace cannot be streamed (see above); read it whole.
var errRestart = errors.New("simulate: restart with the whole trace")

// streamable reports whether the command's options let it stream (the
// configuration is checked once the header is read).
func streamable(o options) bool {
	return o.trace != "-" && o.nodes == "" && o.slurmConf == "" && o.out == "" && o.jobsOut == "" && !o.check
}

// streamLog collects, as a sched.Observer, what the report reads from
// the records on the whole-trace path: the logged and simulated waits of
// the jobs that start with a logged wait (compareWaits), and the cores'
// use from the first start to the last end (Result.Use): Σ size·(end −
// start) as Σ size·end − Σ size·start, exact in 128 bits.
type streamLog struct {
	logged, simulated []int64
	from, to          int64
	hi, lo            uint64 // Σ size·(end − start) modulo 2^128
}

func (l *streamLog) start(now int64, j *swf.Job, _ bool) {
	if j.Wait >= 0 {
		l.logged = append(l.logged, j.Wait)
		l.simulated = append(l.simulated, now-j.Submit)
	}
	l.from = min(l.from, now)
	h, lo := bits.Mul64(uint64(j.Size()), uint64(now))
	var b uint64
	l.lo, b = bits.Sub64(l.lo, lo, 0)
	l.hi -= h + b
}

// end is told the ends of started jobs only: the command cancels none.
func (l *streamLog) end(now int64, j *swf.Job, _ bool) {
	l.to = max(l.to, now)
	h, lo := bits.Mul64(uint64(j.Size()), uint64(now))
	var c uint64
	l.lo, c = bits.Add64(l.lo, lo, 0)
	l.hi += h + c
}

// use is Result.Use(0, 0) on one pool: the same value while the sum is
// below 2^53 (then every partial sum of the records' float sum is exact).
func (l *streamLog) use(P int64) use {
	if l.from >= l.to {
		return use{}
	}
	c := float64(l.lo)
	if l.hi != 0 {
		c = math.Ldexp(float64(l.hi), 64) + float64(l.lo)
	}
	return use{Cores: c / (float64(P) * float64(l.to-l.from))}
}

// loadedPiece is a piece of the trace loaded into the simulation, and the
// latest submit time among its lines and those before.
type loadedPiece struct {
	jobs   []swf.Job
	latest int64
}

// stream reads the trace and simulates it in pieces (see above). It
// returns errRestart, before writing anything, when the trace or the
// configuration needs the whole-trace path.
func stream(ctx context.Context, o options, set func(float64)) (*runInfo, error) {
	t0 := time.Now()
	f, err := os.Open(o.trace)
	if err != nil {
		return nil, err // names the file
	}
	defer f.Close()
	t := &trace{name: o.trace, format: formatSWF}
	format, src := sniff(f)
	if format != formatSWF {
		return nil, errRestart
	}
	sf, err := swf.OpenReader(src, t.name)
	if err != nil {
		return nil, t.named(err)
	}
	defer sf.Close()
	r := sf.Reader
	r.Lenient = o.lenient
	h, err := r.Header()
	if err != nil {
		return nil, t.named(err)
	}
	t.header = h
	info := &runInfo{trace: t, policy: o.policy}
	machine, from, err := machineSize(o, h, t.name)
	if err != nil {
		return nil, errRestart // (the whole path reports it after the parse errors)
	}
	info.machineFrom = from
	info.cfg = config(o, machine)
	if info.cfg.KillAtEstimate || info.cfg.Peer != sched.PeerNone || info.cfg.Validate() != nil {
		return nil, errRestart
	}
	cfg := info.cfg
	cfg.SummaryOnly = true
	s, err := sched.New(cfg)
	if err != nil {
		return nil, err
	}
	expect := max(h.MaxRecords, h.MaxJobs)
	log := &streamLog{from: 1 << 62}
	if expect > 0 { // room for the waits up to holdAfter; the rest below
		n := int(min(expect, holdAfter))
		log.logged, log.simulated = make([]int64, 0, n), make([]int64, 0, n)
	}
	s.Observe(sched.Hooks{Start: log.start, End: log.end})

	var (
		lastID  int64 = math.MinInt64
		clock   int64 = -1 // the simulated instant: every line must come after it
		latest  int64 = -1 // the latest submit time read
		hold    bool       // a job without an estimate was loaded: run nothing before the end
		readDur time.Duration
		// The pieces loaded whose jobs may not all have arrived, with
		// their latest submit time, and those free for reuse (the
		// simulation lets a line go at its arrival): no piece is
		// garbage, so the collector rarely runs during the simulation.
		loaded []loadedPiece
		spare  [][]swf.Job
	)
	for eof := false; !eof; {
		if err := ctx.Err(); err != nil {
			return nil, interrupted(err)
		}
		tr := time.Now()
		var piece []swf.Job
		size := streamPiece
		switch n := len(spare); {
		case hold && expect > int64(t.read):
			// Holding, nothing runs before the end: the rest is one
			// piece, with room for the header's count, so that it is
			// loaded at once; piece by piece, Load grew the records and
			// the arrivals again at each (CEA-Curie: 76 MB of copies).
			size = int(min(expect-int64(t.read), maxPresize))
			piece = make([]swf.Job, 0, size)
			size = math.MaxInt
		case n > 0:
			piece, spare = spare[n-1][:0], spare[:n-1]
		default:
			piece = make([]swf.Job, 0, streamPiece)
		}
		for len(piece) < size {
			n := len(piece)
			if n == cap(piece) { // (only the held rest's, past the header's count)
				piece = append(piece, swf.Job{})[:n]
			}
			if size == math.MaxInt && n&(streamPiece-1) == 0 && n > 0 { // the held rest, as the pieces did
				if err := ctx.Err(); err != nil {
					return nil, interrupted(err)
				}
				set(0.9 * min(1, float64(t.read+n)/float64(expect)))
			}
			piece = piece[:n+1]
			j := &piece[n]
			if *j, err = r.Read(); err == io.EOF {
				piece, eof = piece[:n], true
				break
			} else if err != nil {
				return nil, t.named(err)
			}
			if j.ID <= lastID || j.Submit >= 0 && j.Submit <= clock {
				return nil, errRestart
			}
			if j.ReqTime <= 0 && cfg.MaxEstimate == 0 && !hold {
				if t.read+n < holdAfter {
					return nil, errRestart
				}
				hold = true
			}
			lastID, latest = j.ID, max(latest, j.Submit)
		}
		t.read += len(piece)
		readDur += time.Since(tr)
		if err := s.Load(piece); err != nil {
			return nil, err
		}
		loaded = append(loaded, loadedPiece{piece, latest})
		if n := int(min(expect, maxPresize)); t.read >= holdAfter && cap(log.logged) < n {
			// Room for the header's count of waits, once a job without
			// an estimate can no longer start the command again: grown
			// by appends, the two lists allocated about five times their
			// size (25 MB on CEA-Curie), garbage that raised the peak.
			// Room not written to is never touched (make, not
			// slices.Grow, which clears it).
			log.logged = append(make([]int64, 0, n), log.logged...)
			log.simulated = append(make([]int64, 0, n), log.simulated...)
		}
		if !eof && !hold && latest > clock+1 {
			clock = latest - 1
			if err := s.RunUntil(clock); err != nil {
				return nil, err
			}
			for len(loaded) > 0 && loaded[0].latest <= clock {
				spare, loaded = append(spare, loaded[0].jobs), loaded[1:]
			}
		}
		if expect > 0 {
			set(0.9 * min(1, float64(t.read)/float64(expect)))
		}
	}
	t.stats = r.Stats()
	if t.read == 0 {
		return nil, fmt.Errorf("%s: no job lines", t.name)
	}
	info.readTime = readDur
	if hold { // what was held runs now, in slices, so that an interrupt is seen
		const slices = 100
		from := clock + 1
		for k := 1; k <= slices && from < latest; k++ {
			if err := ctx.Err(); err != nil {
				return nil, interrupted(err)
			}
			if err := s.RunUntil(from + (latest-from)*int64(k)/slices); err != nil {
				return nil, err
			}
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, interrupted(err)
	}
	info.res, err = s.Finish()
	if err != nil {
		return nil, err
	}
	info.simTime = time.Since(t0) - readDur
	info.waits = compareOf(log.logged, log.simulated)
	info.use = log.use(cfg.MachineSize)
	return info, nil
}

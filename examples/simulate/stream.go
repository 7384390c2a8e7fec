package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"math"
	"math/bits"
	"os"
	"runtime/debug"
	"time"

	"github.com/batchq/batchq/examples/internal/cli"
	"github.com/batchq/batchq/internal/inflate"
	"github.com/batchq/batchq/internal/jobid"
	"github.com/batchq/batchq/sanitize"
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
// at its end. At the first one, if fewer than holdAfter lines (or a fifth
// of the header's count) have been read, the job is not loaded yet and
// every job loaded before has an estimate, so no job has been planned
// with the largest estimate so far: the command finds the largest
// estimate of the lines not parsed yet by a scan of field 9
// (estimateScan; the parse where the scan cannot read a line) and raises
// the simulation's to it (Sim.RaiseMaxEstimate), then goes on streaming.
// The lines not parsed yet are the last bytes read (tailReader's window,
// which holds the Reader's buffer) and the rest of the text: a plain
// file's rest is scanned from the file itself, a gzip's is inflated into
// memory (about 70 bytes a job, let go as the run reads it) and scanned.
// Nothing is inflated, parsed or simulated twice (the scan reads the
// rest once ahead of the parse). The run checks the raised estimate
// against the largest it parses: a lenient read that skips a line the
// scan counted, or a window that missed a line (see tailBytes), starts
// again whole. Later (raiseBefore), the command
// loads the rest of the trace without running until the end ("holds"),
// which gives the same schedule and holds every line and record from
// there on, as the whole path does.

// streamPiece is the number of lines loaded at a time. A piece is 152
// bytes a line, and two or three are held at once, with the records Load
// grows to take a piece: at 4,096 lines they were a fifth of a small
// log's peak (a 10,000-job synthetic log: 7.9 MB, now 5.9 MB with the
// inflater's smaller chunks too, nearly all of it the runtime's and the
// binary's pages); at 1,024 the CPU is the same within 0.2% (callgrind,
// whole process, KTH-SP2, SDSC-SP2 and LANL-CM5, both changes). At 256
// (38 KiB a piece, under the window of tailBytes) the peak falls by up
// to 0.4 MiB (KTH-SP2 7,260 → 7,012 KiB; where a held text dominates,
// LLNL-Atlas, not at all) and the instructions move by under 0.1%
// (callgrind, GOGC=off: KTH-SP2 160.6 M → 160.7 M, SDSC-BLUE 1,401.3 M
// → 1,401.8 M, LANL-CM5 789.0 M → 789.6 M).
const streamPiece = 256

// holdAfter is the number of lines read (or a fifth of the header's
// count, if more) past which the first job without an estimate makes the
// command hold rather than raise the largest estimate.
const holdAfter = 16384 // (was 4 pieces of 4,096: kept, it decides which logs hold)

// smallRun is the lines a streamed read takes with the collector's goal
// doubled (streamRun).
const smallRun = 1 << 16

// errRestart: the trace cannot be streamed (see above); read it whole.
var errRestart = errors.New("simulate: restart with the whole trace")

// streamable reports whether the command's options let it stream (the
// configuration is checked once the header is read).
func streamable(o options) bool {
	return o.trace != "-" && o.nodes == "" && o.slurmConf == "" && o.out == "" && o.jobsOut == "" && !o.check && !o.partitionSet
}

// streamLog collects, as a sched.Observer, what the report reads from
// the records on the whole-trace path: the logged and simulated waits of
// the jobs that start with a logged wait (compareWaits), and the cores'
// use from the first start to the last end (Result.Use): Σ size·(end −
// start) as Σ size·end − Σ size·start, exact in 128 bits.
type streamLog struct {
	waits  waitLists
	from   int64
	to     int64
	hi, lo uint64 // Σ size·(end − start) modulo 2^128
	waited bool   // a job started after its submit time, averaged or not (runInfo.waited)
}

// waitLists are the logged and simulated waits, in 32 bits while every
// one fits (a wait of 68 years does not), then in 64: 8 bytes a job
// where 16 were (SDSC-BLUE: 1.9 MB of its peak).
type waitLists struct {
	logged, simulated     []int32
	logged64, simulated64 []int64 // wide: every wait, once one did not fit
	wide                  bool
}

// add appends a job's logged and simulated waits. (streamLog.start
// appends them in 32 bits itself: a call a job for it was 0.6% of
// LANL-CM5's instructions.)
func (w *waitLists) add(logged, simulated int64) {
	if !w.wide {
		if logged == int64(int32(logged)) && simulated == int64(int32(simulated)) {
			w.logged = append(w.logged, int32(logged))
			w.simulated = append(w.simulated, int32(simulated))
			return
		}
		w.widen()
	}
	w.logged64 = append(w.logged64, logged)
	w.simulated64 = append(w.simulated64, simulated)
}

// widen copies the waits to 64 bits, with room for as many as the 32-bit
// lists had.
func (w *waitLists) widen() {
	w.wide = true
	w.logged64, w.simulated64 = make([]int64, len(w.logged), cap(w.logged)), make([]int64, len(w.simulated), cap(w.simulated))
	for i, x := range w.logged {
		w.logged64[i] = int64(x)
	}
	for i, x := range w.simulated {
		w.simulated64[i] = int64(x)
	}
	w.logged, w.simulated = nil, nil
}

// compare is compareOf of the waits.
func (w *waitLists) compare() *waitCompare {
	if w.wide {
		return compareOf(w.logged64, w.simulated64)
	}
	return compareOf(w.logged, w.simulated)
}

func (l *streamLog) start(now int64, j *swf.Job, _ bool) {
	if logged, simulated := j.Wait, now-j.Submit; logged >= 0 {
		if w := &l.waits; !w.wide && logged == int64(int32(logged)) && simulated == int64(int32(simulated)) {
			w.logged = append(w.logged, int32(logged))
			w.simulated = append(w.simulated, int32(simulated))
		} else {
			w.add(logged, simulated)
		}
	}
	l.waited = l.waited || now > j.Submit
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
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		// A pipe or a device cannot be read again: read it whole, as
		// standard input, from its start.
		return nil, errRestart
	}
	inflated, closers, err := inflate.Reader(f, "swf: "+o.trace)
	if err != nil {
		return nil, (&trace{name: o.trace}).named(err)
	}
	defer func() { closeAll(closers) }()
	// The format from the decompressed text itself: no second inflater
	// for a look at its start, as sniff needs on a stream it cannot read
	// twice.
	br := bufio.NewReaderSize(inflated, sniffBytes)
	head, _ := br.Peek(sniffBytes) // an error shows again at the real read
	if formatOf(head) != formatSWF {
		return nil, errRestart
	}
	in := &countReader{r: br}
	if io.Reader(br) != inflated { // (a plain file's reader is a large bufio.Reader already, which br is then)
		in.r = io.MultiReader(bytes.NewReader(head), inflated) // br's bytes, then the text without a copy through br
	}
	plain := io.Reader(br) == inflated
	// rest is the largest estimate (S6) of the lines from the window on:
	// the window's, then the part of the text not read yet.
	rest := func(window []byte) (int64, error) {
		if plain {
			// A plain file's rest is scanned from the file itself:
			// nothing held; its bytes are read twice (the scan, then
			// the parse), the second time from the page cache.
			return fileEstimate(o.trace, st, in.n, window, o.lenient)
		}
		// A gzip's rest is inflated into memory and scanned; the run
		// then reads it from there, letting each chunk go as it is read.
		tx := &text{}
		if err := tx.readChunks(ctx, in.r, maxText-in.n); err != nil {
			if ctx.Err() != nil {
				return 0, err // interrupted: no restart
			}
			return 0, errRestart // (an error shows again on the whole path)
		}
		closeAll(closers) // (the inflater's buffers go before the run goes on)
		closers = nil
		in.r = tx
		all := &text{chunks: append([][]byte{window}, tx.chunks...)}
		if m, ok := all.largestEstimate(); ok {
			return m, nil
		}
		return largestEstimate(all.view(), o.lenient)
	}
	info, err := streamRun(ctx, o, set, t0, in, rest)
	if !plain && errors.As(err, new(*swf.ParseError)) && ctx.Err() == nil {
		// A malformed line of a gzip file may be a damaged stream's
		// garbage: the whole path's reader reads on for the stream's own
		// error and reports that (swf.OpenReader).
		return nil, errRestart
	}
	if err == nil {
		info.trace.zeros = inflate.TrailingZeros(inflated)
	}
	return info, err
}

// streamRun is one streamed read and simulation of the text src, from
// its start. At the first job without an estimate among the first
// holdAfter lines, it raises the simulation's largest estimate (S6) to
// the largest of the whole log, that of the lines read so far and what
// rest finds in the lines from window on (window: the last bytes read
// from src, which hold those of the Reader's buffer not parsed yet, and
// the rest of src).
func streamRun(ctx context.Context, o options, set func(float64), t0 time.Time, src io.Reader, rest func(window []byte) (int64, error)) (*runInfo, error) {
	t := &trace{name: o.trace, format: formatSWF}
	tail := &tailReader{r: src, keep: true} // (Header reads ahead)
	r := swf.NewReader(tail)
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
	// Lines read past which a job without an estimate holds rather than
	// raises: a fifth of the log, as the header counts it (CEA-Curie,
	// whose first such line is its 54,874th of 312,826, holds). Raising
	// there instead cost the same (callgrind, whole process, -machine
	// 80640: 2,751.2 M instructions, holding 2,751.6 M; peak RSS 50.0
	// MB, holding 49.1 MB), and the window's copy would then go on over
	// the whole of every log that has no such job.
	raiseBefore := max(holdAfter, int(min(expect, maxPresize)/5))
	tail.keep = cfg.MaxEstimate == 0
	if expect > 0 {
		// Room for the header's count of waits, at once: grown by
		// appends, the two lists allocated about five times their size
		// (25 MB on CEA-Curie), garbage that raised the peak. Room not
		// written to is never touched (make, not slices.Grow, which
		// clears it), so a run that starts again whole wastes none; room
		// first for the lines up to raiseBefore, then copied to the
		// header's count, had left the first lists as garbage that no
		// collection took back on a small log (KTH-SP2: 256 KB of its
		// 3.5 MB heap).
		n := int(min(expect, maxPresize))
		log.waits.logged, log.waits.simulated = make([]int32, 0, n), make([]int32, 0, n)
	}
	s.Observe(sched.Hooks{Start: log.start, End: log.end})
	// A small log's whole run fits in a few megabytes of heap, where the
	// collector's one cycle, at the runtime's least goal (4 MB), was 3-4%
	// of KTH-SP2's instructions: the goal is doubled (GOGC 200) for the
	// first smallRun lines, then the setting given is back, so that a
	// large log keeps its memory, a held rest read as one piece included.
	// (GOGC=off stays off; the runtime keeps the setting in an int32.)
	gcPercent := debug.SetGCPercent(-1)
	gcDoubled := gcPercent >= 0
	if gcDoubled {
		debug.SetGCPercent(int(min(2*int64(gcPercent), math.MaxInt32)))
	}
	gcRestore := func() {
		if gcDoubled {
			debug.SetGCPercent(gcPercent)
			gcDoubled = false
		}
	}
	defer gcRestore()

	var (
		lastID  int64 = math.MinInt64
		clock   int64 = -1 // the simulated instant: every line must come after it
		latest  int64 = -1 // the latest submit time read
		hold    bool       // a job without an estimate was loaded: run nothing before the end
		raised  int64 = -1 // the largest estimate given to the simulation (RaiseMaxEstimate), or -1
		seenEst int64      // the largest estimate read (S6), to check raised by
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
				if t.read+n >= smallRun {
					gcRestore()
				}
				set(0.9 * min(1, float64(t.read+n)/float64(expect)))
			}
			piece = piece[:n+1]
			j := &piece[n]
			if err = r.ReadInto(j); err == io.EOF { // (into the piece: Read's copy of the job spared)
				piece, eof = piece[:n], true
				break
			} else if err != nil {
				return nil, t.named(err)
			}
			// Rising numbers are what make a streamed run's duplicates
			// those of a whole load. A line without a number gets a
			// made-up one above every real number below 10^18 and every
			// earlier made-up one (sched's id_made_up), so it may come
			// anywhere; a real number past 10^18 may be a made-up one's,
			// read whole (a log of "-1" lines was read whole: 8 times the
			// memory on SDSC-BLUE). A partial execution's line, under its
			// job's number, is rejected in every mode and holds no number
			// (sanitize.PartialExecution): its number and its submit
			// time (its job's, where the log puts the run) may come
			// anywhere (a log with them was read whole: SDSC-BLUE with a
			// run of every 20th job logged 500 lines later peaked at
			// 128.7 MB, not 15.0 MB, the same report).
			partial := j.Status.Partial()
			if id := j.ID; !partial && (!jobid.Missing(id) && (id <= lastID || id > jobid.Base) || j.Submit >= 0 && j.Submit <= clock) {
				return nil, errRestart
			}
			if j.ReqTime <= 0 && cfg.MaxEstimate == 0 && raised < 0 && !hold {
				// The job's line is not loaded yet, and every job
				// loaded before has an estimate: no job has been
				// planned with the largest estimate so far.
				tail.keep = false
				if t.read+n >= raiseBefore {
					hold = true
				} else {
					m, err := rest(tail.window())
					if err != nil {
						return nil, err
					}
					raised = max(m, seenEst)
					if err := s.RaiseMaxEstimate(raised); err != nil {
						return nil, err
					}
				}
			}
			if !jobid.Missing(j.ID) && !partial {
				lastID = j.ID
			}
			latest = max(latest, j.Submit)
			if e := j.ReqTime; e > seenEst && e <= sanitize.MaxTime {
				seenEst = e
			}
			info.eMax.Add(j) // (here, not in a loop over the piece after it: the job is at hand)
			info.partCount.Add(j)
			info.partialOnly.Add(j)
		}
		t.read += len(piece)
		if t.read >= raiseBefore {
			tail.keep = false
		}
		if t.read >= smallRun {
			gcRestore()
		}
		readDur += time.Since(tr)
		if err := s.Load(piece); err != nil {
			return nil, err
		}
		loaded = append(loaded, loadedPiece{piece, latest})
		if !eof && !hold && latest > clock+1 {
			clock = latest - 1
			if err := s.RunUntilContext(ctx, clock); err != nil {
				return nil, interrupted(err)
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
		return nil, cli.NoJobLines(t.name, t.stats)
	}
	if raised >= 0 && seenEst != raised {
		// The scan read a line the Reader skipped (lenient), or the
		// window missed one: the schedule may not be the whole load's.
		return nil, errRestart
	}
	info.readTime = readDur
	if hold { // what was held runs now, in slices, so that an interrupt is seen
		const slices = 100
		from := clock + 1
		for k := 1; k <= slices && from < latest; k++ {
			if err := ctx.Err(); err != nil {
				return nil, interrupted(err)
			}
			if err := s.RunUntilContext(ctx, from+(latest-from)*int64(k)/slices); err != nil {
				return nil, interrupted(err)
			}
		}
	}
	info.res, err = s.FinishContext(ctx)
	if err != nil {
		return nil, interrupted(err)
	}
	info.simTime = time.Since(t0) - readDur
	info.waits = log.waits.compare()
	info.streamWaited = log.waited
	info.use = log.use(cfg.MachineSize)
	info.partitions = onePool(h, &info.partCount, cfg.MachineSize)
	return info, nil
}

// countReader counts the bytes read from r.
type countReader struct {
	r io.Reader
	n int64
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// tailBytes is the window tailReader keeps: more than swf.Reader's
// buffer (64 KiB), which holds the bytes read but not parsed yet. The
// buffer grows past it only for a line longer than 64 KiB (no job line
// is), and then keeps that size: its bytes not parsed yet may then lie
// before the window, and the run's check of the raised estimate starts
// the command again whole when a line missed had the largest
// (TestRaiseWindowHostile).
const tailBytes = 1 << 17

// tailReader keeps, while keep is set, the last tailBytes bytes read
// from r.
type tailReader struct {
	r    io.Reader
	keep bool
	ring []byte
	n    int64 // bytes kept in all
}

func (t *tailReader) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	if t.keep && n > 0 {
		if t.ring == nil {
			t.ring = make([]byte, tailBytes)
		}
		for b := p[:n]; len(b) > 0; {
			k := copy(t.ring[t.n%tailBytes:], b)
			b, t.n = b[k:], t.n+int64(k)
		}
	}
	return n, err
}

// window is the bytes kept, from the start of a line: from the text's
// start when it holds all of it, else from the first line end on (a
// '\n' or a '\r', as the Reader ends lines: with '\n' alone, a file of
// lone '\r' line ends found none and always started again whole).
func (t *tailReader) window() []byte {
	if t.n <= tailBytes {
		return t.ring[:t.n]
	}
	i := int(t.n % tailBytes)
	w := append(append(make([]byte, 0, tailBytes), t.ring[i:]...), t.ring[:i]...)
	if k := bytes.IndexAny(w, "\r\n"); k >= 0 {
		// (a '\n' after this '\r' in the rest makes a blank line)
		if w[k] == '\r' && k+1 < len(w) && w[k+1] == '\n' {
			k++
		}
		return w[k+1:]
	}
	return nil // (a line longer than the window: the end's check decides)
}

func closeAll(closers []io.Closer) {
	for i := len(closers) - 1; i >= 0; i-- {
		closers[i].Close()
	}
}

// textChunk is the size of the pieces of text a gzip's rest is held in.
const textChunk = 1 << 20

// maxText bounds the text of a gzip's rest held (about 15 M jobs of 70
// bytes): past it the whole path reads the trace, whose memory grows
// with its jobs, not its bytes. A gzip file of a few megabytes may
// inflate to gigabytes of comments or blank lines, which the whole path
// reads in constant memory and the text would hold.
const maxText = 1 << 30

// text is a decompressed trace held in memory, in chunks that Read lets
// go as it passes them (so that the simulation's memory grows into
// theirs).
type text struct{ chunks [][]byte }

func (t *text) Read(p []byte) (int, error) {
	for len(t.chunks) > 0 && len(t.chunks[0]) == 0 {
		t.chunks[0] = nil
		t.chunks = t.chunks[1:]
	}
	if len(t.chunks) == 0 {
		return 0, io.EOF
	}
	n := copy(p, t.chunks[0])
	t.chunks[0] = t.chunks[0][n:]
	return n, nil
}

// view is a reader of the text that lets nothing go.
func (t *text) view() io.Reader {
	rs := make([]io.Reader, len(t.chunks))
	for i, c := range t.chunks {
		rs[i] = bytes.NewReader(c)
	}
	return io.MultiReader(rs...)
}

// readChunks appends to t what r holds up to its end; errRestart once it
// read more than limit bytes, ctx's error once ctx is done (a chunk at a
// time: inflating up to maxText takes seconds, and an interrupt must not
// wait for it).
func (t *text) readChunks(ctx context.Context, r io.Reader, limit int64) error {
	var held int64
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		buf := make([]byte, textChunk)
		n, err := 0, error(nil)
		for n < len(buf) && err == nil {
			var m int
			m, err = r.Read(buf[n:])
			n += m
		}
		if n > 0 {
			t.chunks = append(t.chunks, buf[:n])
			held += int64(n)
		}
		if held > limit {
			return errRestart
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// largestEstimate is the largest estimate among the jobs of src, as the
// simulation finds it when it loads them all (S6: every line's estimate
// up to sanitize.MaxTime counts), or 0 without one. src is read as the
// command reads the trace (lenient or not); an error is left for the
// whole path to report (errRestart).
func largestEstimate(src io.Reader, lenient bool) (int64, error) {
	r := swf.NewReader(src)
	r.Lenient = lenient
	var m int64
	for {
		j, err := r.Read()
		if err == io.EOF {
			return m, nil
		}
		if err != nil {
			return 0, errRestart
		}
		if e := j.ReqTime; e <= sanitize.MaxTime {
			m = max(m, e)
		}
	}
}

// largestEstimate is largestEstimate's value found by a scan of field 9
// alone (estimateScan).
func (t *text) largestEstimate() (int64, bool) {
	var sc estimateScan
	for _, c := range t.chunks {
		if !sc.feed(c) {
			return 0, false
		}
	}
	return sc.end()
}

// estimateScan finds largestEstimate's value by a scan of field 9 alone,
// about a third of a parse's cost, over text fed in pieces. Each job
// line's ninth token counts when it is a plain integer ("7200", "-1");
// the scan fails (ok false) when a job line has fewer tokens or a ninth
// token of another form, or the text has a '\r' (a line end the scan
// does not split at), and then the parse decides. A line the Reader
// skips (lenient) still counts here: the streamed run checks the largest
// estimate it read against this one.
type estimateScan struct {
	m     int64
	carry []byte // a line split across pieces
}

// feed scans the lines of c that end in it; false: the scan failed.
func (sc *estimateScan) feed(c []byte) bool {
	if bytes.IndexByte(c, '\r') >= 0 {
		return false
	}
	// Without a tab in c, field9 looks for spaces alone: half its work
	// (archive logs have none).
	tabs := bytes.IndexByte(c, '\t') >= 0
	ok := true
	if len(sc.carry) > 0 {
		k := bytes.IndexByte(c, '\n')
		if k < 0 {
			sc.carry = append(sc.carry, c...)
			return true
		}
		sc.carry = append(sc.carry, c[:k]...)
		if sc.m, ok = lineEstimate(sc.carry, sc.m, true); !ok {
			return false
		}
		sc.carry = sc.carry[:0]
		c = c[k+1:]
	}
	for len(c) > 0 {
		k := bytes.IndexByte(c, '\n')
		if k < 0 {
			sc.carry = append(sc.carry[:0], c...) // (c may be reused)
			break
		}
		if sc.m, ok = lineEstimate(c[:k], sc.m, tabs); !ok {
			return false
		}
		c = c[k+1:]
	}
	return true
}

// end scans a last line without a line end and returns the result.
func (sc *estimateScan) end() (m int64, ok bool) {
	if len(sc.carry) > 0 {
		if sc.m, ok = lineEstimate(sc.carry, sc.m, true); !ok {
			return 0, false
		}
	}
	return sc.m, true
}

// fileEstimate is largestEstimate's value for window and then the plain
// file at path (was: its information at the first read) from byte from
// on, by the scan (estimateScan) where it can, else by the parse;
// errRestart when the file is no longer the one first read (same file,
// size and time of change).
func fileEstimate(path string, was os.FileInfo, from int64, window []byte, lenient bool) (int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, errRestart
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !os.SameFile(st, was) || st.Size() != was.Size() || !st.ModTime().Equal(was.ModTime()) {
		return 0, errRestart
	}
	if _, err := f.Seek(from, io.SeekStart); err != nil {
		return 0, errRestart
	}
	sc := estimateScan{}
	ok := sc.feed(window)
	buf := make([]byte, 256<<10)
	for ok {
		n, err := f.Read(buf)
		if ok = sc.feed(buf[:n]); !ok {
			break
		}
		if err == io.EOF {
			if m, ok := sc.end(); ok {
				return m, nil
			}
			break
		}
		if err != nil {
			return 0, errRestart
		}
	}
	if _, err := f.Seek(from, io.SeekStart); err != nil {
		return 0, errRestart
	}
	return largestEstimate(io.MultiReader(bytes.NewReader(window), bufio.NewReaderSize(f, 64<<10)), lenient)
}

// lineEstimate returns max(m, the line's estimate) for a job line (see
// text.largestEstimate), m for a blank line or a comment. tabs false
// says the line has no tab.
func lineEstimate(line []byte, m int64, tabs bool) (int64, bool) {
	i := 0
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	if i == len(line) || line[i] == ';' {
		return m, true
	}
	i = field9(line, i, tabs)
	neg := i < len(line) && line[i] == '-'
	if neg {
		i++
	}
	var v int64
	d := i
	for ; uint(i) < uint(len(line)); i++ { // (unsigned: no bounds check)
		c := line[i] - '0'
		if c > 9 {
			break
		}
		v = v*10 + int64(c)
	}
	if n := i - d; n == 0 || n > 18 || uint(i) < uint(len(line)) && line[i] != ' ' && line[i] != '\t' {
		return m, false
	}
	if !neg && v > m && v <= sanitize.MaxTime {
		m = v
	}
	return m, true
}

// swarMasks are field9's: ' ' in each byte, the low seven bits of each,
// the high bit of each, 1 in each, '\t' in each.
var swarMasks = [5]uint64{0x2020202020202020, 0x7f7f7f7f7f7f7f7f, 0x8080808080808080, 0x0101010101010101, 0x0909090909090909}

// field9 returns the index of the ninth token of line, whose first token
// starts at i (the first byte that is not a blank), or len(line) if it
// has fewer. It reads eight bytes at a time (sixteen on a line without a
// tab) and counts the tokens' starts (a byte that is not a blank after
// one that is) in a word by their bits: a loop over each byte was most of
// the scan's cost. tabs false says the line has no tab: then a blank is a
// space, one test a word instead of two.
func field9(line []byte, i int, tabs bool) int {
	need := 9            // token starts to see, the one at i included
	prev := uint64(0x80) // byte i-1, as a blank, in bit 7 (the line's start is one)
	// The masks are read from a variable, not written as constants: the
	// compiler loads a constant again at each use (six loads a word),
	// and keeps a variable in a register.
	sp, lo7, hi8, one, tab := swarMasks[0], swarMasks[1], swarMasks[2], swarMasks[3], swarMasks[4]
	// Without a tab, two words a round: their starts counted by one
	// multiply (at most 2 a byte, 16 in all: the sum still fits the top
	// byte), and a loop test and a comparison with need for both. (With
	// tabs too, the values outnumber the registers: spills ate the gain.)
	for ; !tabs && i <= len(line)-16; i += 16 {
		w0, w1 := binary.LittleEndian.Uint64(line[i:]), binary.LittleEndian.Uint64(line[i+8:])
		s0, s1 := w0^sp, w1^sp
		tok0, tok1 := (s0&lo7+lo7|s0)&hi8, (s1&lo7+lo7|s1)&hi8
		blank0, blank1 := tok0^hi8, tok1^hi8
		starts0 := tok0 & (blank0<<8 | prev)
		starts1 := tok1 & (blank1<<8 | blank0>>56)
		if c := int((starts0>>7 + starts1>>7) * one >> 56); c < need {
			need -= c
			prev = blank1 >> 56
			continue
		}
		starts, at := starts0, i
		if c := int((starts0 >> 7) * one >> 56); c < need {
			need -= c
			starts, at = starts1, i+8
		}
		for range need - 1 {
			starts &= starts - 1
		}
		return at + bits.TrailingZeros64(starts)>>3
	}
	// An index, not a slice cut by 8 at each word: the cut's length,
	// capacity and pointer were a fifth of a word's instructions.
	for ; i <= len(line)-8; i += 8 {
		w := binary.LittleEndian.Uint64(line[i:])
		// The high bit of each byte that is neither ' ' nor '\t' (a
		// byte's own: no carry crosses bytes), and of each blank.
		s := w ^ sp
		tok := (s&lo7 + lo7 | s) & hi8
		if tabs {
			t := w ^ tab
			tok &= t&lo7 + lo7 | t
		}
		blank := tok ^ hi8
		starts := tok & (blank<<8 | prev)
		prev = blank >> 56
		// The starts counted by a multiply (no popcount check on
		// GOAMD64 v1): each is bit 7 of its byte, the sum goes to the top.
		if c := int((starts >> 7) * one >> 56); c < need {
			need -= c
			continue
		}
		for range need - 1 {
			starts &= starts - 1
		}
		return i + bits.TrailingZeros64(starts)>>3
	}
	for ; i < len(line); i++ { // the last bytes one by one
		blank := line[i] == ' ' || line[i] == '\t'
		if !blank && prev != 0 {
			if need--; need == 0 {
				return i
			}
		}
		prev = 0
		if blank {
			prev = 1
		}
	}
	return len(line)
}

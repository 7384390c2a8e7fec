package sched

import (
	"cmp"
	"encoding/binary"
	"math"
	"math/bits"
	"slices"
)

// foldSummary is Config.SummaryOnly's state: every record is folded into
// it once final, then forgotten. The S7 averages need the completed jobs
// in termination order and a window (the first 1% to end, the last
// arrival) known only at the end, and their float sums must be made in
// that order to round as summarize's do: so each completed job is kept,
// varint-encoded, in a log of about 15 bytes a job (TestSummaryLogBytes), and summarized from
// it at the end exactly as summarize does from the records.
type foldSummary struct {
	// The record-order counts of summarize's first loop: they do not
	// depend on the order.
	counts Summary     // Killed, Overran, Cancelled, Filled (Summary.count) and NoEstimate
	rules  [nRules]int // jobs per rule (Result.Changed)

	// The termination-order log of the completed jobs; open holds the
	// last jobs to end, up to openBatch of them, put in record order
	// within an instant (summarize's tie rule) before they are appended.
	log      [][]byte // in blocks of logBlock bytes, never copied to grow
	jobs     int      // entries in log
	reserved int      // entries in log with a reservation (summary's room for their offsets)
	corr     bool     // some entry has corrections
	lastEnd  int64    // end of the last entry
	open     []endedJob
	unsorted bool // open has two jobs of one instant out of record order

	tau       int64      // the bounded slowdown's threshold
	minSubmit int64      // smallest simulated submit time among completed jobs (S7's window start below 100 jobs)
	busy      []endedJob // cancelled jobs that ran: their share of the utilization
}

// endedJob is one completed job as summarize reads its record.
type endedJob struct {
	k                     int // record index
	end, start, wait, run int64
	size, firstRes        int64
	acc                   float64
	corrections           int
	backfilled            bool
}

func newFoldSummary(tau int64) *foldSummary { return &foldSummary{tau: tau, minSubmit: math.MaxInt64} }

// fold adds record rec, still open at the end (waiting, running or
// never arrived: its End < 0), to the counts; admit counted noEstimate.
// A final record is folded by foldLive, from its live job.
func (f *foldSummary) fold(rec *Record) {
	f.counts.count(rec)
	for c, i := rec.changes(), 0; c != 0; c, i = c>>1, i+1 {
		f.rules[i] += int(c & 1)
	}
}

// foldLive is close under Config.SummaryOnly, for a job that ended or
// was cancelled: from the job's live values, it adds to the counts and
// rules what summarize takes from the record close would write and, for
// a completed job, its entry of the termination-order log (simulated
// submit: the live job's, a peer mode's moved one), or, cancelled while
// running, its share of the utilization (busy). It writes into the record
// only End, which recHead's scan and liveByID read (nothing else reads a
// folded record). close wrote twelve fields that a fold of the record
// read back and copied again into an endedJob: KTH-SP2's EASY run spent
// 5.7 M instructions in the two, 200 a job.
func (s *Sim) foldLive(jb *Job) {
	rec := s.rec(jb.idx)
	rec.End = jb.end
	f := s.summ
	started := jb.start >= 0
	killed := jb.killed && started // (not if cancelled before it started)
	// Summary.count and Record.changes of that record.
	c := rec.rules
	if killed {
		f.counts.Killed++
		c |= ruleKilled
	}
	if started && !killed && jb.e > 0 && jb.r > 2*jb.e { // (Summary.Overran)
		f.counts.Overran++
	}
	if jb.state == cancelled {
		f.counts.Cancelled++
	}
	if jb.filled {
		f.counts.Filled++
		c |= ruleEstimateFilled
	}
	for i := 0; c != 0; c, i = c>>1, i+1 {
		f.rules[i] += int(c & 1)
	}
	switch {
	case jb.state == done:
		var acc float64
		if d := jb.end - jb.j.Submit; d > 0 {
			acc = jb.accSum / float64(d)
		} else {
			acc = accuracy(jb.p, jb.r)
		}
		f.minSubmit = min(f.minSubmit, jb.j.Submit)
		// The jobs are appended to the log openBatch or more at a time,
		// not at each instant (most instants end one job: a call of
		// flush a job), and only at an instant's end: an instant's jobs
		// are sorted together. Ends come in order; a job out of record
		// order within its instant sets unsorted for flush.
		n := len(f.open)
		if n >= openBatch && f.open[n-1].end != jb.end {
			f.flush()
			n = 0
		}
		// (written in place: a literal appended was built and copied)
		if n < cap(f.open) {
			f.open = f.open[:n+1]
		} else {
			f.open = append(f.open, endedJob{})
		}
		e := &f.open[n]
		if n > 0 && f.open[n-1].end == jb.end && f.open[n-1].k > jb.idx {
			f.unsorted = true
		}
		e.k, e.end, e.start, e.wait, e.run, e.size = jb.idx, jb.end, jb.start, jb.start-jb.j.Submit, jb.r, rec.Size
		e.firstRes, e.acc, e.corrections, e.backfilled = jb.firstRes, acc, jb.nCorr, jb.backfill
	case started: // cancelled while running
		f.busy = append(f.busy, endedJob{k: jb.idx, end: jb.end, start: jb.start, size: rec.Size})
	}
	// The head moves only when its own record ends: every close leaves
	// recs[recHead] open (or recHead at the end), so a job behind it
	// ending leaves the head where it is (the scan's test cost 23
	// instructions a job).
	if jb.idx-s.recBase == s.recHead {
		for s.recHead < len(s.recs) && s.recs[s.recHead].End >= 0 {
			s.recHead++
		}
	}
}

// flush appends the open jobs to the log, in termination order and in
// record order within an instant.
func (f *foldSummary) flush() {
	if f.unsorted {
		slices.SortFunc(f.open, byEndRecord)
		f.unsorted = false
	}
	// The last block, at its capacity, and its length n, held across
	// the entries and stored back at the end (and at a new block), as
	// the last end, the corrections' flag and the count: written back at
	// each entry, they were a tenth of the flush.
	nb := len(f.log)
	var b []byte
	n := 0
	if nb > 0 {
		b, n = f.log[nb-1][:cap(f.log[nb-1])], len(f.log[nb-1])
	}
	// An entry is written in place into the block's spare room
	// (maxEntry bytes, checked below), then the block is cut to it:
	// binary.AppendUvarint's append checked the capacity at each byte
	// (a quarter of the fold's cost), and binary.PutUvarint, the same
	// bytes, is a call a value (KTH-SP2's whole EASY run, callgrind:
	// 221.7 M instructions with uv, 225.1 M with PutUvarint and
	// PutVarint).
	uv := func(x uint64) { // binary.AppendUvarint's bytes
		for x >= 0x80 {
			b[n] = byte(x) | 0x80
			x >>= 7
			n++
		}
		b[n] = byte(x)
		n++
	}
	sv := func(x int64) { uv(uint64(x)<<1 ^ uint64(x>>63)) } // binary.AppendVarint's zig-zag
	last, corr, reserved := f.lastEnd, false, 0
	for i := range f.open {
		e := &f.open[i]
		if len(b)-n < maxEntry {
			if nb > 0 {
				f.log[nb-1] = b[:n]
			}
			b, n = make([]byte, logBlock), 0
			f.log = append(f.log, b[:0])
			nb++
		}
		// Termination order: ends do not decrease.
		uv(uint64(e.end - last))
		span := e.end - e.start
		sv(span)
		sv(e.wait)
		sv(e.size)
		binary.LittleEndian.PutUint64(b[n:], math.Float64bits(e.acc))
		n += 8
		// The corrections, whether the job had a reservation, whether
		// its run time differs from its span and whether it was
		// backfilled in one value; the reservation's offset and the
		// run time's difference after it only if there are any (most
		// jobs have neither: two values fewer to write and read,
		// KTH-SP2's EASY run 0.45 M and 0.07 M instructions fewer,
		// SDSC-BLUE's 2.3 M and 1.1 M).
		flags := uint64(e.corrections) << 3
		if e.backfilled {
			flags |= 1
		}
		if e.firstRes >= 0 {
			flags |= 2
		}
		if e.run != span {
			flags |= 4
		}
		uv(flags)
		if e.firstRes >= 0 {
			reserved++
			res := uint64(e.start-e.firstRes) << 1 // (0 and up: started at or after it)
			if e.start < e.firstRes {
				res = 1 + uint64(e.firstRes-e.start-1)<<1
			}
			uv(res)
		}
		if e.run != span {
			sv(e.run - span)
		}
		last = e.end
		corr = corr || e.corrections != 0
	}
	if nb > 0 {
		f.log[nb-1] = b[:n]
	}
	f.lastEnd, f.corr, f.jobs, f.reserved = last, f.corr || corr, f.jobs+len(f.open), f.reserved+reserved
	f.open = f.open[:0]
}

// logBlock is the size of the log's blocks; maxEntry bounds an entry
// (seven varints of at most 10 bytes and 8 bytes of accuracy).
const (
	logBlock = 64 << 10
	maxEntry = 7*binary.MaxVarintLen64 + 8
)

// openBatch is how many ended jobs flush appends at a time.
const openBatch = 32

func byEndRecord(a, b endedJob) int {
	if a.end != b.end {
		return cmp.Compare(a.end, b.end)
	}
	return a.k - b.k
}

// logReader decodes the log in termination order.
type logReader struct {
	blocks [][]byte
	b      []byte
	end    int64
}

// next decodes the next entry into e, whose k it leaves (the warm-up's
// 1%, and tests).
func (r *logReader) next(e *endedJob) {
	one := [1]endedJob{*e}
	r.read(one[:])
	*e = one[0]
}

// logBatch is how many entries summary decodes at a time (read): its
// loop over the log called next for each, and the call and the loop's
// sums and counters kept around it cost about 50 instructions an entry
// (LANL-CM5's EASY run, callgrind: 6.3 M of summary's 22 M).
const logBatch = 32

// read decodes the next len(es) entries into es (not returned: a copy
// of an entry cost a tenth of the decoding).
func (r *logReader) read(es []endedJob) {
	// binary.Uvarint at b[i:], inline, the one-byte values (most of
	// them) first, and Varint as its zig-zag decoding of Uvarint's value;
	// r.b is resliced once, at the end (a reslice for each value, and
	// the call for a longer one, cost a quarter of the decoding).
	b, i, end := r.b, 0, r.end
	uv := func() uint64 {
		c := b[i]
		i++
		if c < 0x80 {
			return uint64(c)
		}
		// The second byte by a constant shift (most longer values
		// have two: run times and waits of minutes to hours), the
		// others in a loop whose shift is masked: a shift by a
		// variable the compiler cannot bound cost a test for 64 and
		// up, a mask, a register's spill and reload a byte.
		u := uint64(c & 0x7f)
		c = b[i]
		i++
		if c < 0x80 {
			return u | uint64(c)<<7
		}
		u |= uint64(c&0x7f) << 7
		for s := uint(14); ; s += 7 { // (flush wrote at most 10 bytes a value)
			c = b[i]
			i++
			u |= uint64(c&0x7f) << (s & 63)
			if c < 0x80 {
				return u
			}
		}
	}
	sv := func() int64 {
		u := uv()
		return int64(u>>1) ^ -int64(u&1) // (zig-zag, as Varint decodes)
	}
	for k := range es {
		if i == len(b) { // (an entry never spans two blocks: flush starts a block before)
			b, i, r.blocks = r.blocks[0], 0, r.blocks[1:]
		}
		e := &es[k]
		end += int64(uv())
		e.end = end
		span := sv()
		e.start = end - span
		e.wait = sv()
		e.size = sv()
		e.acc = math.Float64frombits(binary.LittleEndian.Uint64(b[i:]))
		i += 8
		c := uv()
		e.corrections, e.backfilled = int(c>>3), c&1 == 1
		e.firstRes = -1
		if c&2 != 0 {
			if res := uv(); res&1 == 0 {
				e.firstRes = e.start - int64(res>>1)
			} else {
				e.firstRes = e.start + 1 + int64(res>>1)
			}
		}
		e.run = span
		if c&4 != 0 {
			e.run += sv()
		}
	}
	r.b, r.end = b[i:], end
}

// area is a job's processor-seconds within [start, end], exact, as a
// 128-bit integer (hi, lo); the same product Record.busy rounds.
func (e *endedJob) area(start, end int64) (hi, lo uint64) {
	if l := min(end, e.end) - max(start, e.start); l > 0 {
		return bits.Mul64(uint64(e.size), uint64(l))
	}
	return 0, 0
}

// summary is summarize's Summary from the fold: the same counts, and the
// same float operations in the same order. Utilization sums integers:
// below 2^53 processor-seconds every partial sum is exact, so the order
// (summarize's is record order) does not matter; above it, the value can
// differ from summarize's in its last bits.
func (f *foldSummary) summary(P, lastSubmit int64) Summary {
	if len(f.open) > 0 {
		f.flush()
	}
	var sum Summary
	sum.Jobs = f.jobs
	warm := f.jobs / 100
	sum.WindowEnd = lastSubmit
	r := logReader{blocks: f.log}
	var e endedJob
	if warm > 0 {
		for range warm {
			r.next(&e)
			sum.WindowStart = e.end
		}
	} else if f.jobs > 0 {
		sum.WindowStart = f.minSubmit
	}
	n := &f.counts
	sum.Killed, sum.Overran, sum.Cancelled, sum.Filled, sum.NoEstimate = n.Killed, n.Overran, n.Cancelled, n.Filled, n.NoEstimate

	var hi, lo, c uint64
	add := func(h, l uint64) {
		lo, c = bits.Add64(lo, l, 0)
		hi += h + c
	}
	for i := range f.busy {
		add(f.busy[i].area(sum.WindowStart, sum.WindowEnd))
	}
	var corrSum float64
	// The lists the loop appends to now and then, behind a pointer: as
	// locals, their twelve words took registers that the loop's values
	// then lost, spilled and reloaded at each entry.
	var lists summaryLists
	ls := &lists
	if f.corr {
		ls.corrs = make([]byte, 0, f.jobs)
	}
	// reserved has room for every logged job with a reservation (the
	// included ones are among them), as summarize's: grown by appends it
	// allocated 5.0 MB for its 1.9 MB on SDSC-BLUE under conservative
	// backfilling, where every job that waits has one, in pages the
	// process touched for the first time (about 1,200 page faults).
	ls.reserved32 = make([]int32, 0, f.reserved)
	var pos float64
	r = logReader{blocks: f.log}
	var batch [logBatch]endedJob
	for k0 := 0; k0 < f.jobs; k0 += logBatch {
		es := batch[:min(logBatch, f.jobs-k0)]
		r.read(es)
		for bi := range es {
			e, k := &es[bi], k0+bi
			add(e.area(sum.WindowStart, sum.WindowEnd))
			if k < warm || e.end > lastSubmit {
				continue
			}
			sum.Included++
			sum.MeanWait += float64(e.wait)
			sum.MeanResponse += float64(e.wait + e.run)
			bsld, slowdown := slowdowns(e.wait, e.run, f.tau)
			if e.run > 0 {
				sum.MeanSlowdown += slowdown
				pos++
			}
			sum.MeanBSLD += bsld
			sum.Accuracy += e.acc
			if e.backfilled {
				sum.BackfillRate++
			}
			corrSum += float64(e.corrections)
			if f.corr {
				c := byte(255)
				if e.corrections < 255 {
					c = byte(e.corrections)
				} else {
					ls.corrBig = append(ls.corrBig, e.corrections)
				}
				ls.corrs = append(ls.corrs, c)
			}
			if e.firstRes >= 0 {
				d := e.start - e.firstRes
				if a := max(d, -d); !ls.wide && a <= math.MaxInt32 {
					ls.reserved32 = append(ls.reserved32, int32(a))
				} else {
					ls.widen(a)
				}
				if d > 0 {
					ls.delayed = append(ls.delayed, float64(d))
				}
			}
		}
	}
	if sum.WindowEnd > sum.WindowStart && P > 0 {
		area := float64(lo) // exact below 2^53
		if hi != 0 || lo >= 1<<53 {
			area = math.Ldexp(float64(hi), 64) + float64(lo)
		}
		sum.Utilization = area / (float64(P) * float64(sum.WindowEnd-sum.WindowStart))
	}
	sum.Excluded = sum.Jobs - sum.Included
	if n := float64(sum.Included); n > 0 {
		sum.MeanWait /= n
		sum.MeanResponse /= n
		if pos > 0 {
			sum.MeanSlowdown /= pos
		}
		sum.MeanBSLD /= n
		sum.Accuracy /= n
		sum.BackfillRate /= n
		sum.MeanCorrections, sum.SDCorrections = f.corrections(ls.corrs, ls.corrBig, corrSum, sum.Included)
		pr := &sum.Predictability
		if ls.wide {
			pr.Rate = float64(len(ls.reserved)) / n
			pr.AbsMean, pr.AbsSD = meanSD(ls.reserved)
			pr.AbsMedian = median(ls.reserved)
		} else {
			pr.Rate = float64(len(ls.reserved32)) / n
			pr.AbsMean, pr.AbsSD = meanSD(ls.reserved32)
			pr.AbsMedian = median(ls.reserved32)
		}
		pr.DelayRate = float64(len(ls.delayed)) / n
		pr.DelayMean, pr.DelaySD = meanSD(ls.delayed)
		pr.DelayMedian = median(ls.delayed)
	}
	return sum
}

// summaryLists are the lists summary appends to now and then.
type summaryLists struct {
	// With corrections, their sequence over the included jobs, for
	// the SD's second pass: a byte a job read back instead of a third
	// decoding of the log (values from 255 up are 255 here, in order
	// in corrBig).
	corrs             []byte
	corrBig           []int
	reserved, delayed []float64
	// reserved in 32 bits while every offset fits (one of 68 years
	// does not), then in reserved: 0.5 MB of SDSC-BLUE's peak under
	// conservative backfilling, where every job that waits has one
	reserved32 []int32
	wide       bool
}

// widen appends a, the offset that does not fit in 32 bits, to reserved,
// with those appended before (once).
func (ls *summaryLists) widen(a int64) {
	if !ls.wide {
		ls.wide = true
		ls.reserved = make([]float64, len(ls.reserved32), cap(ls.reserved32))
		for i, x := range ls.reserved32 {
			ls.reserved[i] = float64(x)
		}
		ls.reserved32 = nil
	}
	ls.reserved = append(ls.reserved, float64(a))
}

// corrections is meanSD of the included jobs' corrections, in
// termination order, as summarize has it: sum is their sum in that order,
// corrs their sequence (255 standing for the next of big), kept when the
// log has corrections.
func (f *foldSummary) corrections(corrs []byte, big []int, sum float64, n int) (mean, sd float64) {
	mean = sum / float64(n)
	if !f.corr {
		return mean, 0 // (every term 0: the pass below gives 0)
	}
	for _, c := range corrs {
		x := float64(c)
		if c == 255 {
			x, big = float64(big[0]), big[1:]
		}
		sd += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(sd / float64(n))
}

// slowdowns are a started job's bounded slowdown max(1, (w+r)/max(τ, r))
// and slowdown (w+r)/max(r, 1 s), for Record.BSLD and Record.Slowdown.
func slowdowns(wait, run, tau int64) (bsld, slowdown float64) {
	resp := float64(wait + run)
	return max(1, resp/float64(max(tau, run))), resp / float64(max(run, 1))
}

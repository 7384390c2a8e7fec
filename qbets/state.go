package qbets

import (
	"encoding"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"

	"github.com/batchq/batchq/internal/plugin"
)

// A saved state is stateMagic, the payload, and a CRC-32C of both
// (little-endian, 4 bytes): without it, most random corruptions of a few
// bytes still parsed and restored a wrong state. States of the first
// format (stateMagicV1: no checksum) are still read, so that a service's
// database written before the checksum restores after an upgrade.
const (
	stateMagic   = "qbets-state-2"
	stateMagicV1 = "qbets-state-1"
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// MarshalBinary saves the Predictor's state: the full history, the
// trimmed histories of every level, the clustering and the availability
// detectors, so that a service can restart without replaying its feed
// (Config.MaxHistory bounds the size). Restore it with UnmarshalBinary on
// a Predictor made by New with the same Config.
func (p *Predictor) MarshalBinary() ([]byte, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	var e enc
	e.b = append(e.b, stateMagic...)
	p.fingerprint(&e)
	for _, v := range []int{p.st.Arrivals, p.st.Releases, p.st.ChangePoints, p.st.Reclusterings,
		p.st.DownExcluded, p.st.Forgotten, p.events, p.nextCluster, p.fitTo, p.st.NilFits} {
		e.int(int64(v))
	}
	e.bool(p.sawSubmit)
	e.bool(p.started)
	e.int(p.lastStart)
	e.int(p.now)
	e.int(int64(len(p.all)))
	for _, o := range p.all {
		e.int(o.Submit)
		e.int(o.Start - o.Submit)
		e.int(int64(o.Nodes))
		e.int(o.Walltime)
	}
	if bp, ok := p.part.(*partition); ok {
		e.bool(true)
		e.int(int64(bp.mode))
		e.int(int64(bp.k))
		ints(&e, bp.outer)
		e.bool(bp.inner != nil)
		if bp.inner != nil {
			for _, in := range bp.inner {
				ints(&e, in)
			}
			for _, f := range bp.first {
				e.int(int64(f))
			}
		}
	} else {
		e.bool(false)
	}
	for _, l := range p.levels {
		e.int(int64(len(l.hists)))
		for _, h := range l.hists {
			if err := saveHistory(&e, h); err != nil {
				return nil, err
			}
		}
		for _, h := range []*history{l.queue, l.down} {
			e.bool(h != nil)
			if h != nil {
				if err := saveHistory(&e, h); err != nil {
					return nil, err
				}
			}
		}
	}
	e.bool(p.avail != nil)
	if a := p.avail; a != nil {
		for _, h := range []*history{a.cnt, a.gap} {
			if err := saveHistory(&e, h); err != nil {
				return nil, err
			}
		}
		for _, b := range []bool{a.released, a.down, a.pending} {
			e.bool(b)
		}
		for _, v := range []int64{a.lastRelease, a.arrivals, a.lastArrival, a.downFrom} {
			e.int(v)
		}
		e.int(int64(len(a.periods)))
		for _, d := range a.periods {
			e.int(d.from)
			e.int(d.to)
		}
	}
	return binary.LittleEndian.AppendUint32(e.b, crc32.Checksum(e.b, castagnoli)), nil
}

// fingerprint writes the settings a saved state depends on.
func (p *Predictor) fingerprint(e *enc) {
	c := p.cfg
	e.int(int64(len(p.levels)))
	for _, l := range p.levels {
		e.float(l.Quantile)
		e.float(l.Confidence)
	}
	for _, b := range []bool{c.NoTrim, c.Trimmer != nil, c.Clusterer != nil, c.NoAvailability, c.Withhold, c.CountAtRelease,
		c.Availability.CountEvents, c.Availability.MergeReleases, c.Availability.PredictFirst, c.Availability.NoTrim,
		c.Availability.NoCount, c.Availability.NoGap} {
		e.bool(b)
	}
	e.int(int64(c.Cluster))
	e.int(int64(c.MaxClusters))
	ints(e, c.FixedUppers)
	e.int(int64(c.TrainArrivals))
	e.int(int64(c.ReclusterEvery))
	e.int(int64(c.MaxHistory))
}

func ints(e *enc, xs []int64) {
	e.int(int64(len(xs)))
	for _, x := range xs {
		e.int(x)
	}
}

func readInts(d *dec) []int64 {
	n := d.count()
	if n == 0 {
		return nil
	}
	xs := make([]int64, n)
	for i := range xs {
		xs[i] = d.int()
	}
	return xs
}

func saveHistory(e *enc, h *history) error {
	e.int(int64(len(h.recent)))
	for _, w := range h.recent {
		e.int(w)
	}
	e.int(int64(h.trims))
	if m, ok := h.tr.(encoding.BinaryMarshaler); ok {
		b, err := m.MarshalBinary()
		if err != nil {
			return fmt.Errorf("qbets: saving a Trimmer: %w", err)
		}
		e.bool(true)
		e.bytes(b)
	} else {
		e.bool(false)
	}
	return nil
}

func loadHistory(d *dec, h *history) error {
	n := d.count()
	h.recent = h.recent[:0]
	for range n {
		h.recent = append(h.recent, d.int())
	}
	h.trims = int(d.int())
	if d.bool() {
		b := d.bytes()
		if d.err != nil {
			return d.err
		}
		u, ok := h.tr.(encoding.BinaryUnmarshaler)
		if !ok {
			return fmt.Errorf("%w: the saved state has a Trimmer state this Predictor's Trimmer cannot restore", ErrBadState)
		}
		if err := u.UnmarshalBinary(b); err != nil {
			if !errors.Is(err, ErrBadState) { // a user's Trimmer's own error
				err = fmt.Errorf("%w: Trimmer state: %w", ErrBadState, err)
			}
			return err
		}
	} else if h.tr != nil {
		// A Trimmer that cannot be saved restarts on the kept history.
		h.tr.Reset()
		for _, w := range h.recent {
			h.tr.Observe(w, false)
		}
	}
	h.rebuild()
	return d.err
}

// UnmarshalBinary restores a state saved by MarshalBinary into p, which
// must have been made by New with the same Config; p's own state is
// replaced. A corrupted state (its checksum does not match) is an error
// and changes nothing. A Clusterer other than the built-ins is fitted
// again on the jobs it was last fitted on (the same partition, unless
// MaxHistory has dropped some of them since).
func (p *Predictor) UnmarshalBinary(b []byte) error {
	var body []byte
	v1 := false
	switch {
	case len(b) >= len(stateMagic)+4 && string(b[:len(stateMagic)]) == stateMagic:
		n := len(b) - 4
		if crc32.Checksum(b[:n], castagnoli) != binary.LittleEndian.Uint32(b[n:]) {
			return fmt.Errorf("%w: corrupt (checksum mismatch)", ErrBadState)
		}
		body = b[len(stateMagic):n]
	case len(b) >= len(stateMagicV1) && string(b[:len(stateMagicV1)]) == stateMagicV1:
		body, v1 = b[len(stateMagicV1):], true
	default:
		return fmt.Errorf("%w: not a saved Predictor state", ErrBadState)
	}
	var want enc
	p.fingerprint(&want)
	d := dec{b: body}
	if len(d.b) < len(want.b) || string(d.b[:len(want.b)]) != string(want.b) {
		return fmt.Errorf("%w: the saved state is for another Config", ErrBadState)
	}
	d.b = d.b[len(want.b):]
	fresh, err := New(p.cfg)
	if err != nil {
		return err
	}
	q := fresh
	var c [10]int
	nc := len(c)
	if v1 {
		nc-- // the first format had no NilFits
	}
	for i := range c[:nc] {
		c[i] = int(d.int())
	}
	q.st.Arrivals, q.st.Releases, q.st.ChangePoints, q.st.Reclusterings = c[0], c[1], c[2], c[3]
	q.st.DownExcluded, q.st.Forgotten, q.events, q.nextCluster, q.fitTo, q.st.NilFits = c[4], c[5], c[6], c[7], c[8], c[9]
	q.sawSubmit, q.started = d.bool(), d.bool()
	q.lastStart, q.now = d.int(), d.int()
	n := d.count()
	for range n {
		var o Observation
		o.Submit = d.int()
		o.Start = o.Submit + d.int()
		o.Nodes = int(d.int())
		o.Walltime = d.int()
		if d.err != nil {
			return d.err
		}
		q.record0(o)
	}
	if d.bool() {
		bp := &partition{mode: ClusterMode(d.int()), k: int(d.int())}
		bp.outer = readInts(&d)
		if d.bool() {
			bp.inner = make([][]int64, len(bp.outer)+1)
			bp.first = make([]int, len(bp.outer)+1)
			for i := range bp.inner {
				bp.inner[i] = readInts(&d)
			}
			for i := range bp.first {
				bp.first[i] = int(d.int())
			}
		}
		if d.err != nil || bp.k < 1 || bp.k > len(q.all)+len(bp.outer)+64 {
			return errCorrupt
		}
		q.setPartition(bp)
	} else {
		from := min(max(q.fitTo-q.st.Forgotten, 0), len(q.all))
		np := q.clus.Fit(q.all[:from], q.levels[0].nMin)
		if plugin.Missing(np) {
			return errNilPartition
		}
		q.setPartition(np)
	}
	for _, l := range q.levels {
		k := d.count()
		if d.err != nil || k != q.k {
			return errCorrupt
		}
		l.hists = make([]*history, k)
		for i := range l.hists {
			l.hists[i] = q.newHistory(l)
			if err := loadHistory(&d, l.hists[i]); err != nil {
				return err
			}
		}
		for _, hp := range []**history{&l.queue, &l.down} {
			if d.bool() != (*hp != nil) {
				return errCorrupt
			}
			if *hp != nil {
				if err := loadHistory(&d, *hp); err != nil {
					return err
				}
			}
		}
	}
	if d.bool() != (q.avail != nil) {
		return errCorrupt
	}
	if a := q.avail; a != nil {
		for _, h := range []*history{a.cnt, a.gap} {
			if err := loadHistory(&d, h); err != nil {
				return err
			}
		}
		a.released, a.down, a.pending = d.bool(), d.bool(), d.bool()
		a.lastRelease, a.arrivals, a.lastArrival, a.downFrom = d.int(), d.int(), d.int(), d.int()
		n := d.count()
		a.periods = make([]downPeriod, 0, n)
		for range n {
			a.periods = append(a.periods, downPeriod{d.int(), d.int()})
		}
	}
	if d.err != nil {
		return d.err
	}
	if len(d.b) != 0 {
		return errCorrupt
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.levels, p.part, p.k, p.boxes = q.levels, q.part, q.k, q.boxes
	p.all, p.allPair, p.pairs, p.pairI, p.avail = q.all, q.allPair, q.pairs, q.pairI, q.avail
	p.sawSubmit, p.started, p.lastStart, p.events, p.nextCluster, p.now, p.fitTo, p.st =
		q.sawSubmit, q.started, q.lastStart, q.events, q.nextCluster, q.now, q.fitTo, q.st
	return nil
}

package qbets

// Why the availability answer is as it is:
//
// Availability. Two detectors (arrivals since the last release; time
// since the last release), each a trimmed Binomial-Method bound at
// q = C = 0.95. While either is exceeded the machine may be down, and
// jobs submitted then are kept out of the cluster histories when they
// start (Stats.DownExcluded), as the thesis does. The thesis then refuses
// a forecast ("usually less than 1%" of jobs, §4.2.5); on the PWA logs
// that reading refuses 5–30% (examples/qbets/README.md), so a gateway built on it
// says "no prediction" to a fifth of its users. The default therefore
// answers: a Forecast made while the machine may be down has MayBeDown set
// and the detectors' evidence in Down, and its bound comes from a history
// of its own — the waits of the jobs submitted in earlier such spells
// (the ones kept out of the clusters), trimmed like the others — or, until
// that holds MinHistory waits, from the job's cluster. Config.Withhold
// restores the thesis's refusal (Reason MachineDown). The share of forecasts
// answered and BM correctness per log, under the default, Withhold and
// each reading of the detectors the thesis leaves open (Config.Availability:
// CountEvents, MergeReleases, PredictFirst, CountAtRelease), and why the
// thesis's "usually less than 1%" refusals are not reached on these logs,
// are in examples/qbets/README.md ("Availability").

// availability infers that the machine may be down (spec §2.5, thesis
// §4.2.5) from two series, each bounded by the Binomial Method at
// q = C = 0.95 with trimming and no clustering:
//
//   - the number of job arrivals between successive release events: when
//     the arrivals since the last release exceed its bound, the machine is
//     DOWN from that arrival until the next release ("the queue grew too
//     long");
//   - the time between successive release events: when the time since the
//     last release exceeds its bound B, the machine is DOWN from
//     lastRelease+B+1 until the next release ("too long since anything
//     started").
//
// Releases sharing a timestamp are one release event (Q11). Closed DOWN
// periods are kept so that jobs submitted during them can be kept out of
// the prediction history when they are released (their waits are
// inflated by the outage). AvailabilityReading selects the other
// readings.
type availability struct {
	cnt, gap    *history
	released    bool
	lastRelease int64
	arrivals    int64 // arrivals (or arrival seconds, countEvents) since the last release event
	lastArrival int64 // time of the latest arrival counted in arrivals
	down        bool  // DOWN by the arrival count since downFrom
	downFrom    int64
	pending     bool         // predictFirst: the count exceeded its bound; DOWN from the next arrival
	periods     []downPeriod // closed DOWN periods, ascending and disjoint
	noCount     bool         // arrival-count detector off
	noGap       bool         // inter-release detector off
	atRelease   bool         // judge the count when it is complete, at the release
	countEvents bool         // arrivals in the same second count once
	merge       bool         // releases without an arrival between them are one event
	predFirst   bool         // the arriving job is judged before its own arrival counts

	// Measurement knobs, not thesis readings (TestAvailabilityOnTraces
	// sets them to show how far each is from the thesis's "< 1%").
	window   int   // > 0: both series keep about their last window values (trimmed to window at 2·window)
	eventGap int64 // countEvents: arrivals this many seconds or less after the previous one join its event
}

// downPeriod is the half-open DOWN interval [from, to): to is the release
// that ended it, and jobs submitted at that instant arrive after it.
type downPeriod struct{ from, to int64 }

// newAvailability uses tab when it is for q = C = 0.95 (the Predictor's
// default), else its own.
func newAvailability(tab *indexTable) *availability {
	if tab.q != 0.95 || tab.c != 0.95 {
		tab = newIndexTable(0.95, 0.95)
	}
	n := minHistoryOf(0.95, 0.95)
	return &availability{cnt: newHistory(RunLength(n), n, tab), gap: newHistory(RunLength(n), n, tab)}
}

// setReading applies r (before any event).
func (a *availability) setReading(r AvailabilityReading) {
	a.noCount, a.noGap = r.NoCount, r.NoGap
	if r.NoTrim {
		a.cnt.tr, a.gap.tr = nil, nil
	}
	a.countEvents, a.merge, a.predFirst = r.CountEvents, r.MergeReleases, r.PredictFirst
}

// release processes a job start at t (starts arrive in nondecreasing
// order; an earlier or equal t belongs to the last release event).
func (a *availability) release(t int64) {
	if a.released && t <= a.lastRelease {
		return
	}
	if a.released && a.merge && a.arrivals == 0 {
		// Part of the previous release event: no arrival saw the release
		// before this one, so no interval ended there (and no job was
		// submitted in a DOWN spell since).
		a.lastRelease = t
		return
	}
	if a.released {
		from, isDown := a.downFrom, a.down
		if b, ok := a.gap.bound(); ok && !a.noGap && t-a.lastRelease > b {
			if g := a.lastRelease + b + 1; !isDown || g < from {
				from = g
			}
			isDown = true
		}
		if isDown && from < t {
			a.periods = append(a.periods, downPeriod{from, t})
		}
		a.gap.add(t - a.lastRelease)
		b, ok := a.cnt.bound()
		a.cnt.add(a.arrivals)
		if a.window > 0 && a.cnt.len() > 2*a.window {
			a.cnt.trimTo(a.window)
			a.gap.trimTo(a.window)
		}
		if a.atRelease && !a.noCount && ok && a.arrivals > b {
			a.released, a.lastRelease, a.arrivals = true, t, 0
			a.down, a.downFrom, a.pending = true, t, false
			return
		}
	}
	a.released = true
	a.lastRelease = t
	a.arrivals = 0
	a.down, a.pending = false, false
}

// arrive counts a job arrival at t, including it in the count it is
// judged by (Q11), or not (predFirst).
func (a *availability) arrive(t int64) {
	if a.pending && !a.down {
		a.down, a.downFrom = true, max(t, a.lastRelease)
	}
	if !a.countEvents || a.arrivals == 0 || t-a.lastArrival > a.eventGap {
		a.arrivals++
	}
	a.lastArrival = t
	if a.down || a.pending || !a.released || a.noCount || a.atRelease {
		return
	}
	if b, ok := a.cnt.bound(); ok && a.arrivals > b {
		if a.predFirst {
			a.pending = true
			return
		}
		a.down = true
		a.downFrom = max(t, a.lastRelease)
	}
}

// evidence is what the detectors see at t ≥ the last release.
func (a *availability) evidence(t int64) DownEvidence {
	e := DownEvidence{Arrivals: a.arrivals, ArrivalBound: -1, IdleBound: -1}
	if b, ok := a.cnt.bound(); ok && !a.noCount {
		e.ArrivalBound = b
	}
	if a.released {
		e.Idle = max(t-a.lastRelease, 0)
		if b, ok := a.gap.bound(); ok && !a.noGap {
			e.IdleBound = b
		}
	}
	return e
}

// downAt reports whether the machine is DOWN at time t ≥ the last release.
func (a *availability) downAt(t int64) bool {
	if a.down {
		return true
	}
	if !a.released || a.noGap {
		return false
	}
	b, ok := a.gap.bound()
	return ok && t-a.lastRelease > b
}

// submittedDown reports whether a job submitted at t fell in a closed
// DOWN period.
func (a *availability) submittedDown(t int64) bool {
	ps := a.periods
	lo, hi := 0, len(ps)
	for lo < hi { // first period with to > t
		m := int(uint(lo+hi) >> 1)
		if ps[m].to <= t {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo < len(ps) && ps[lo].from <= t
}

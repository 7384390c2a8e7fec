package sched

// consRoutes counts the routes by which conservative backfilling's
// passes (conservativePass and its shortcuts) avoid work, so that a test
// can show each is taken: switched off, every schedule would still be
// the same (they only spare scans), and no other test would notice.
// Counted per pass where that suffices (visits, moves), else on the
// route itself, in the loop's state (consLoop) and added to the memo's
// at the pass's end: a few instructions per pass, none on the placement
// loop's common path (a job kept with nothing to scan).
type consRoutes struct {
	// passes by route: conservativeQuiet's (arrivals alone, same
	// epoch), conservativeArrivals after a rebase that found no gain,
	// the full pass with the queue changed by arrivals alone (its list
	// the last pass's, in place), the other full passes, and those
	// among all full passes that began overdrawn (consOverdrawn)
	quiet, rebasedArrivals, arrivalsInPlace, full, overdrawn int64
	// the full passes with the list in place that held at now the jobs
	// whose reservation had passed
	duePasses int64
	// the placement loop: the entries it visited, the jobs moved
	visits, moves int64
	// the settled jobs' scans (fitBefore), the visits at which the
	// last fruitless scan (noStart) moved the start of a scan (or
	// spared it), and the jobs kept by the proof that a settled job is
	// blocked at r-1 with a scan to do otherwise, and those kept by the
	// last fruitless scan's blocking step (blocker)
	scans, noStart, rMinus1, stepBlocked int64
}

// add adds the loop's counts to r.
func (r *consRoutes) add(c *consLoop) {
	r.scans += c.scans
	r.noStart += c.noStart
	r.rMinus1 += c.rMinus1
	r.stepBlocked += c.stepBlocked
}

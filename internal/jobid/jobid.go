// Package jobid numbers the jobs of a log that carry no job number (SWF
// field 1 below 1: the -1 of "missing", which archive and converted logs
// can carry on every line, or 0), one rule for the simulator (sched's
// id_made_up) and for the commands that key jobs by number before any
// simulation, so that a job gets the same number from both.
//
// The number of such a job on the log's n-th job line (1 for the first)
// is Base + n: 1000000000000000007 is line 7's. It names its line, it
// is a valid SWF job number (a writer can write it, a reader read it back;
// SWF's fields are -1 or above, so no negative number would do), it is
// known the moment the line is read, so a log read piece by piece gets the
// numbers of one read whole, and no real job has it: a log's numbers count
// from 1 and stay far below 10^18. Made-up numbers come after the real ones in number order, in
// line order among themselves.
package jobid

// Base is added to a job line's position to number a job without a
// number: 10^18.
const Base = 1_000_000_000_000_000_000

// Missing reports whether id is no job number: below 1.
func Missing(id int64) bool { return id < 1 }

// MadeUp returns the number of the job without one on the n-th job line
// (n ≥ 1) of a log: Base + n (held at 2^63 − 1, past 8 × 10^18 lines).
func MadeUp(n int64) int64 {
	const most = 1<<63 - 1
	if n > most-Base {
		return most
	}
	return Base + n
}

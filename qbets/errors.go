package qbets

import "errors"

// The errors a caller branches on, for errors.Is; the error returned
// wraps one and says what was wrong.
var (
	// ErrRejected: Submit or Observe refused its input and left the
	// Predictor unchanged: a negative time, size or walltime, a start
	// before its submit, or a start before the previous job's (starts
	// must come in order). Drop that job and count it; a feed that
	// delivers starts out of order should sort them first.
	ErrRejected = errors.New("qbets: input rejected")
	// ErrBadState: UnmarshalBinary cannot use the bytes: not a saved
	// state, a corrupt one, or one saved under another Config or a
	// Trimmer this Predictor cannot restore. Do not use the Predictor it
	// was called on; build a fresh one with New and feed it the history
	// again.
	ErrBadState = errors.New("qbets: unusable saved state")
)

package qbets

// AvailabilityReading selects among readings of thesis §4.2.5 that the
// text leaves open (spec §2.5, Q11). The zero value is the spec's reading,
// which Config{} runs: every job counts as one arrival, every release
// event (releases sharing a second are one) ends an interval of the two
// series, and the arrival count is judged at each arrival, including it.
// Each field is opt-in (Config.Availability); examples/qbets/README.md tabulates
// what each one refuses on the PWA logs.
type AvailabilityReading struct {
	// CountEvents counts the jobs submitted in the same second as one
	// arrival, in the series and in the running count: a flurry of jobs a
	// user submits at once is one act, not the queue "growing too long".
	CountEvents bool
	// MergeReleases makes releases with no arrival between them one
	// release event: both series then hold only the intervals that contain
	// an arrival (counts ≥ 1). The thesis's simulator moves started jobs
	// into the history only when the next job arrives (§4.3.1), so it
	// cannot tell two releases apart when no arrival falls between them.
	MergeReleases bool
	// PredictFirst forecasts the arriving job before its arrival updates
	// the count (§4.3.1: "the predictor makes a prediction … and in
	// addition updates the availability inference engine"): the job whose
	// arrival makes the count exceed its bound still gets a forecast, and
	// DOWN starts at the next arrival.
	PredictFirst bool
	// NoTrim bounds both series over their whole history instead of the
	// change-point-trimmed one.
	NoTrim bool
	// NoCount and NoGap switch off the arrival-count and the
	// time-since-last-release detector.
	NoCount, NoGap bool
}

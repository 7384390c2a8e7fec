package qbets

// Request is a forecast query: a job of Nodes nodes asking for Walltime
// seconds, submitted at At (Unix seconds). At 0 means "now", the latest
// time the Predictor has seen (a Submit or a start). Quantile and
// Confidence select one of the (q, C) pairs the Predictor was configured
// for (Config.Quantile/Confidence or Config.Levels); 0 means the Config's.
type Request struct {
	Nodes    int
	Walltime int64
	At       int64

	Quantile, Confidence float64
}

// Reason says why a Forecast has no bound. The zero Reason is that of a
// Forecast with a bound (Forecast.OK); it prints as "ok".
type Reason int

const (
	_ Reason = iota // the forecast has a bound (Forecast.OK)
	// NoHistory: neither the job's cluster nor the whole queue holds
	// enough history for a bound (minHistoryOf(q, C) waits).
	NoHistory
	// MachineDown: availability inference (§2.5) marks the machine as
	// possibly down and Config.Withhold is set: no prediction until the
	// next job starts.
	MachineDown
	// BadRequest: negative nodes or walltime, or a (q, C) pair the
	// Predictor was not configured for.
	BadRequest
)

func (r Reason) String() string {
	switch r {
	case 0:
		return "ok"
	case NoHistory:
		return "no history: fewer waits than the minimum for a bound"
	case MachineDown:
		return "machine may be down: no job started for too long or too many arrivals since the last start"
	case BadRequest:
		return "bad request: negative nodes or walltime, or a (quantile, confidence) pair not configured"
	}
	return "unknown reason"
}

// Forecast is the answer to a Request.
type Forecast struct {
	// Upper is the upper level-C confidence bound on the q-quantile of
	// the wait, in seconds: the promise "with probability q the job
	// starts within Upper", made with confidence C.
	Upper int64
	// Lower is the level-C lower confidence bound on the same quantile;
	// LowerOK is false when the history is too short for one (it needs
	// 1 − (1−q)^n ≥ C: one wait at q = C = 0.95).
	Lower   int64
	LowerOK bool
	OK      bool   // Upper is valid
	Reason  Reason // why not, when !OK
	// Cluster is the index (into Clusters()) of the job's cluster, −1
	// when there is none (bad request, or withheld because the machine
	// may be down).
	Cluster int
	// Fallback is true when the job's cluster held too little history
	// and the bound came from the queue-level history (Q13).
	Fallback bool
	History  int // size of the history the bound was taken from

	// MayBeDown is set when availability inference (§2.5) says the
	// machine may be down: too many arrivals or too long since the last
	// job started. By default the bound is still given (from the waits of
	// jobs submitted in earlier such spells once there are enough of them,
	// Down.FromDownHistory); with Config.Withhold there is none.
	MayBeDown bool
	Down      DownEvidence
}

// DownEvidence is what the availability detectors saw when a Forecast
// was made with MayBeDown set.
type DownEvidence struct {
	Arrivals     int64 // arrivals since the last job start
	ArrivalBound int64 // the arrival-count detector's bound, −1 when it has none
	Idle         int64 // seconds since the last job start
	IdleBound    int64 // the time-since-last-start detector's bound, −1 when it has none
	// FromDownHistory: the bound came from the waits of the jobs
	// submitted while the machine may have been down (their own history,
	// kept out of the clusters' as the thesis does).
	FromDownHistory bool
}

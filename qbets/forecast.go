package qbets

// Request is a forecast query: a job of Nodes nodes asking for Walltime
// seconds, submitted at At (Unix seconds). At 0 means "now", the latest
// time the Predictor has seen (a Submit or a start).
type Request struct {
	Nodes    int
	Walltime int64
	At       int64
}

// Reason says why a Forecast has no bound.
type Reason int

const (
	// OK: the forecast has a bound.
	OK Reason = iota
	// NoHistory: neither the job's cluster nor the whole queue holds
	// enough history for a bound (MinHistory(q, C) waits).
	NoHistory
	// MachineDown: availability inference (§2.5) marks the machine as
	// possibly down; no prediction until the next job starts.
	MachineDown
)

func (r Reason) String() string {
	switch r {
	case OK:
		return "ok"
	case NoHistory:
		return "no history: fewer waits than the minimum for a bound"
	case MachineDown:
		return "machine may be down: no job started for too long or too many arrivals since the last start"
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
	// LowerOK is false when the history is too short for one
	// (MinHistoryLower).
	Lower   int64
	LowerOK bool
	OK      bool   // Upper is valid
	Reason  Reason // why not, when !OK
	// Cluster is the index (into Clusters()) of the job's cluster, −1
	// when the machine is down.
	Cluster int
	// Fallback is true when the job's cluster held too little history
	// and the bound came from the queue-level history (A13).
	Fallback bool
	History  int // size of the history the bound was taken from
}

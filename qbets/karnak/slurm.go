package karnak

// The scheduler's own estimate beside the service's predictions (issue
// #25): a Slurm feed (package slurmfeed) asks Slurm, with `sbatch
// --test-only`, when a job of each of a few shapes (cores × wall time)
// would start if submitted now, and sends each answer as an "estimate"
// event. Each queue keeps the latest answer per shape, for at most
// maxSlurmShapes shapes, and a prediction for a hypothetical job shows
// the answer for the smallest probed shape at least as large as the job
// (the conservative choice: a larger job does not start earlier), if
// that answer is at most maxSlurmAge old. The feed also sends Slurm's
// expected start of each waiting job (squeue) as an "estimate" event of
// the job; the job's prediction shows the latest, if as recent.
//
// Estimates are out of band: they need not come in time order with the
// other events of their system (a feed sends them as it reads them, at
// the time it read them, not after its reorder delay), and they do not
// move the system's clock. The latest received for a shape or a job
// replaces the one held, whatever their times (a feed's clock ahead
// cannot freeze them).
//
// A pruning of the store (retain.go) deletes the estimates before its
// cut with the other events; the cut is at least a week back, so they
// are older than maxSlurmAge and were not shown anyway: a restart shows
// the same.

// SlurmPart is the scheduler's own estimate, sent by a Slurm feed: asked
// at At, it expected a job of Cores and WallTime to start at Start, a
// wait of Wait = Start − At seconds (0 when Start is earlier). For a
// hypothetical job (`sbatch --test-only`) the job is the smallest one
// probed that is at least as large as the one asked about, in cores and
// in wall time; for a queued job it is the job itself (its expected start
// as squeue shows it). A prediction carries it if it is at most an hour
// old. Estimates come out of band ("estimate" events, in any time order,
// not moving the clock): a Slurm feed's answers of `sbatch --test-only`
// per probed job shape, and each waiting job's expected start.
type SlurmPart struct {
	Wait     int64 `json:"wait" xml:"wait"`
	Start    int64 `json:"start" xml:"start"`
	At       int64 `json:"at" xml:"at"`
	Cores    int64 `json:"cores" xml:"cores"`
	WallTime int64 `json:"wallTime" xml:"wallTime"`
}

const (
	// maxSlurmShapes bounds the shapes a queue keeps: a feed probing
	// more replaces the oldest answer (slurmfeed probes at most 24 per
	// partition).
	maxSlurmShapes = 64
	// maxSlurmAge is how old an answer may be and still be shown: a feed
	// that stopped is not shown forever (slurmfeed sends an unchanged
	// answer again every 15 minutes).
	maxSlurmAge = 3600
)

type slurmEstimate struct{ cores, wall, at, start int64 }

// slurmEstimates is a queue's latest answer per shape, at most
// maxSlurmShapes of them.
type slurmEstimates []slurmEstimate

// applyEstimate keeps the estimate e (validated) of a job or of a
// queue's probed shape. The caller holds mu.
func (s *system) applyEstimate(e *Event) {
	if e.Job == 0 {
		s.queues[e.Queue].slurm.put(e)
		return
	}
	j := s.jobs[e.Job]
	if e.Start > 0 {
		j.slurmStart, j.slurmAt = e.Start, e.Time
	}
	if e.Priority > 0 {
		j.priority = e.Priority
	}
}

// put keeps e's answer: in place of its shape's earlier one, else in a
// free place, else in place of the oldest answer (the first of them at
// equal times), so a replay of the log rebuilds the same set.
func (s *slurmEstimates) put(e *Event) {
	v := slurmEstimate{e.Cores, e.WallTime, e.Time, e.Start}
	oldest := -1
	for i, x := range *s {
		if x.cores == v.cores && x.wall == v.wall {
			(*s)[i] = v
			return
		}
		if oldest < 0 || x.at < (*s)[oldest].at {
			oldest = i
		}
	}
	if len(*s) < maxSlurmShapes {
		*s = append(*s, v)
		return
	}
	(*s)[oldest] = v
}

// forJob is the answer for the smallest shape (fewest cores, then
// shortest wall time) with at least cores and wall, asked at most
// maxSlurmAge before now; nil when there is none.
func (s slurmEstimates) forJob(cores, wall, now int64) *SlurmPart {
	best := -1
	for i, x := range s {
		if x.cores < cores || x.wall < wall || now-x.at > maxSlurmAge {
			continue
		}
		if best < 0 || x.cores < s[best].cores || x.cores == s[best].cores && x.wall < s[best].wall {
			best = i
		}
	}
	if best < 0 {
		return nil
	}
	x := s[best]
	return &SlurmPart{Wait: max(x.start-x.at, 0), Start: x.start, At: x.at, Cores: x.cores, WallTime: x.wall}
}

// slurmOfJob is Slurm's expected start of a waiting job, if read at most
// maxSlurmAge before now; nil otherwise.
func slurmOfJob(j *job, now int64) *SlurmPart {
	if j.slurmAt == 0 || now-j.slurmAt > maxSlurmAge {
		return nil
	}
	return &SlurmPart{Wait: max(j.slurmStart-j.slurmAt, 0), Start: j.slurmStart, At: j.slurmAt, Cores: j.Cores, WallTime: j.ReqTime}
}

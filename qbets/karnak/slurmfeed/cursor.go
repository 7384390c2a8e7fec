package slurmfeed

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/batchq/batchq/qbets/karnak"
)

// cursor is the collector's state, saved as JSON in Config.Cursor: what was
// sent, the batches in flight, and the predictions and their scores. A batch
// is written here before it is sent (write-ahead), so that after a crash it
// is sent again under the same id, and the service's idempotent ingest
// stores it once.
type cursor struct {
	Version int    `json:"version"`
	System  string `json:"system"`
	// Session is random, made with the cursor: batch ids are
	// "slurmfeed/<system>/<session>/<seq>", so that a new cursor's batch 1
	// is not mistaken for an old one's.
	Session string `json:"session"`
	Seq     int64  `json:"seq"`
	// Pending batches are written and not yet acknowledged, in order.
	Pending []batch `json:"pending,omitempty"`
	// Watermark is the time of the last event sent: a later event older
	// than it is sent at it (Report.Late).
	Watermark int64 `json:"watermark"`
	// LastPoll is the clock at the last successful poll; sacct is asked
	// for the jobs active since a little before it.
	LastPoll int64 `json:"lastPoll"`
	// Horizon: a job not known here that ended before it is ignored (it
	// was fed and forgotten, or ended before the feed began).
	Horizon int64                  `json:"horizon"`
	Queues  map[string]queueLimits `json:"queues"`
	Jobs    map[string]*jobState   `json:"jobs"`
	// NotDue holds the jobs seen but not yet due (submitted after the
	// cutoff), by key, until they are (Report.NotDue) or, gone from squeue
	// and sacct for Keep, are skipped.
	NotDue map[string]seenJob `json:"notDue,omitempty"`
	Report Report             `json:"report"`
	// Probes (probe.go): the last answer sent per shape, when the last
	// round was, and where the next one begins among the shapes.
	ProbeSent map[string]probeSent `json:"probeSent,omitempty"`
	LastProbe int64                `json:"lastProbe,omitempty"`
	ProbeNext int                  `json:"probeNext,omitempty"`
}

const cursorVersion = 1

// seenJob is a job seen before it was due: its submission and when it
// was last seen (the collector's clock).
type seenJob struct {
	Submit int64 `json:"submit"`
	Seen   int64 `json:"seen"`
}

type batch struct {
	ID     string         `json:"id"`
	Events []karnak.Event `json:"events"`
}

type queueLimits struct {
	Cores int64 `json:"cores"`
	Wall  int64 `json:"wall"`
}

// jobState is what was sent about one Slurm job (or array task), with the
// real times (a late event is sent at the watermark, but scored at its
// time), and the predictions made while it waited.
type jobState struct {
	ID     int64  `json:"id"`
	Queue  string `json:"queue"`
	Submit int64  `json:"submit"`
	Start  int64  `json:"start,omitempty"`
	End    int64  `json:"end,omitempty"`
	// Sent: submit, start and end events sent (or written ahead).
	Submitted bool `json:"submitted,omitempty"`
	Started   bool `json:"started,omitempty"`
	Ended     bool `json:"ended,omitempty"`
	// Skip, when set, is why the job is not fed (counted once, under
	// SkipCount: Skip, or "other reasons" past maxReasons), as the last
	// poll that saw it read it: a later poll that reads it otherwise
	// moves the count, or feeds it.
	Skip      string `json:"skip,omitempty"`
	SkipCount string `json:"skipCount,omitempty"`
	LastSeen  int64  `json:"lastSeen"`
	// Predicted waits from submission, seconds, of Slurm, QBETS, IBL,
	// and when each was taken (0: none yet).
	Wait [nMethods]int64 `json:"wait"`
	At   [nMethods]int64 `json:"at"`
	// SlurmSent is the last expected start of Slurm's sent to the
	// service for the job, read at SlurmSentAt (probe.go, jobEstimates).
	SlurmSent   int64 `json:"slurmSent,omitempty"`
	SlurmSentAt int64 `json:"slurmSentAt,omitempty"`
	// PrioritySent is the last priority of the job sent (submit or
	// estimate), at PrioritySentAt.
	PrioritySent   int64 `json:"prioritySent,omitempty"`
	PrioritySentAt int64 `json:"prioritySentAt,omitempty"`
}

// The methods compared, in the Report's order.
const (
	mSlurm = iota
	mQBETS
	mIBL
	nMethods
)

var methodNames = [nMethods]string{"Slurm (squeue --start)", "QBETS bound", "IBL estimate"}

func newCursor(system string) (*cursor, error) {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return nil, err
	}
	return &cursor{
		Version: cursorVersion, System: system, Session: hex.EncodeToString(b[:]),
		Queues: map[string]queueLimits{}, Jobs: map[string]*jobState{},
	}, nil
}

// loadCursor reads the cursor at path; (nil, nil) when there is none.
func loadCursor(path, system string) (*cursor, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return parseCursor(b, path, system)
}

// parseCursor reads a cursor file's content; a cursor edited by hand (or
// damaged) is an error naming the field, never a collector that fails
// later.
func parseCursor(b []byte, path, system string) (*cursor, error) {
	var c cursor
	if err := json.Unmarshal(b, &c); err != nil {
		return nil, fmt.Errorf("slurmfeed: cursor %s: %v", path, err)
	}
	switch {
	case c.Version != cursorVersion:
		return nil, fmt.Errorf("slurmfeed: cursor %s: version %d, want %d", path, c.Version, cursorVersion)
	case c.System != system:
		return nil, fmt.Errorf("slurmfeed: cursor %s is the feed of system %q, not %q", path, c.System, system)
	case c.Session == "":
		return nil, fmt.Errorf("slurmfeed: cursor %s: no session", path)
	case c.Seq < 0 || c.ProbeNext < 0 || c.Watermark < 0 || c.LastPoll < 0 || c.LastProbe < 0:
		return nil, fmt.Errorf("slurmfeed: cursor %s: seq, probeNext, watermark, lastPoll, lastProbe: %d, %d, %d, %d, %d, want ≥ 0",
			path, c.Seq, c.ProbeNext, c.Watermark, c.LastPoll, c.LastProbe)
	}
	for i, b := range c.Pending {
		if b.ID == "" || len(b.Events) == 0 {
			return nil, fmt.Errorf("slurmfeed: cursor %s: pending[%d]: a batch needs an id and events", path, i)
		}
	}
	if c.Queues == nil {
		c.Queues = map[string]queueLimits{}
	}
	if c.Jobs == nil {
		c.Jobs = map[string]*jobState{}
	}
	for k, j := range c.Jobs {
		if j == nil {
			delete(c.Jobs, k)
		}
	}
	return &c, nil
}

// save writes the cursor atomically: a temporary file in the same
// directory, synced, renamed over the old one, and the directory synced.
func (c *cursor) save(path string) error {
	if path == "" {
		return nil
	}
	b, err := json.Marshal(c)
	if err != nil {
		return err
	}
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(b)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("slurmfeed: saving the cursor: %v", err)
	}
	if d, err := os.Open(dir); err == nil {
		d.Sync() // best effort: not every file system syncs directories
		d.Close()
	}
	return nil
}

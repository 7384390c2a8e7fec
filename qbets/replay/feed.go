package replay

import (
	"github.com/batchq/batchq/qbets"
	"github.com/batchq/batchq/swf"
)

// The only calls into qbets.Predictor's feed methods: a change of their
// signatures is fixed here.

// submit announces j's arrival to p.
func submit(p *qbets.Predictor, j *swf.Job) error {
	return p.Submit(j.Submit)
}

// observe releases j's wait to p.
func observe(p *qbets.Predictor, j *swf.Job) error {
	return p.Observe(qbets.Observation{Submit: j.Submit, Start: j.Submit + j.Wait, Nodes: nodes(j), Walltime: walltime(j)})
}

// nodes is the job's size as QBETS clusters it: swf.Job.Size (allocated,
// else requested processors); an unknown (−1) size is 0 to the predictor,
// which rejects negative sizes.
func nodes(j *swf.Job) int { return int(max(j.Size(), 0)) }

// walltime is the job's requested time; an unknown (−1) one is 0.
func walltime(j *swf.Job) int64 { return max(j.ReqTime, 0) }

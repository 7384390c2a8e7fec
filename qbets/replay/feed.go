package replay

import (
	"github.com/batchq/batchq/qbets"
	"github.com/batchq/batchq/swf"
)

// The only calls into qbets.Predictor's feed methods: a change of their
// signatures is fixed here.

// submit announces j's arrival to p.
func submit(p *qbets.Predictor, j *swf.Job) error {
	p.Submit(j.Submit)
	return nil
}

// observe releases j's wait to p.
func observe(p *qbets.Predictor, j *swf.Job) error {
	p.Observe(qbets.Observation{Submit: j.Submit, Start: j.Submit + j.Wait, Nodes: nodes(j), Walltime: j.ReqTime})
	return nil
}

// nodes is the job's size as QBETS clusters it: swf.Job.Size (allocated,
// else requested processors; −1 unknown).
func nodes(j *swf.Job) int { return int(j.Size()) }

package main

import "github.com/batchq/batchq/qbets"

// forecaster is QBETS (binomial bound with change-point trimming, q = C =
// 0.95) fed by the simulated queue's own starts, as the thesis's
// simulation does (§6.5). Clustering and availability inference are not in
// qbets yet, so one predictor covers the whole machine.
type forecaster struct{ *qbets.Predictor }

func newForecaster() *forecaster {
	// The zero Config is always valid, so New cannot fail here.
	p, _ := qbets.New(qbets.Config{})
	return &forecaster{p}
}

func (f *forecaster) observe(submit, start, nodes, walltime int64) {
	f.Observe(qbets.Observation{Submit: submit, Start: start, Nodes: int(nodes), Walltime: walltime})
}

package sched

import (
	"strings"

	"github.com/batchq/batchq/sched/predict"
)

// The named variants of the thesis's Tab 4.4 (spec §2.4). The plain one
// has a constructor (EASY); every variant, that one included, is a Preset
// (Presets, LookupPreset: LookupPreset("EASY++")). Each
// returns a fresh Config: predictors keep per-simulation state, so never
// share one between Sims.

// history returns EASY++'s default user-history predictor.
func history() RuntimePredictor {
	h, _ := predict.NewUserHistory(predict.HistoryConfig{})
	return h
}

// EASY is vanilla EASY: p = e, no correction, FCFS backfilling.
func EASY(p int64) Config { return Config{MachineSize: p} }

// fcfs never backfills.
func fcfs(p int64) Config { return Config{MachineSize: p, Scheduler: fcfsScheduler{}} }

// conservative gives every waiting job a reservation (user estimates).
func conservative(p int64) Config {
	return Config{MachineSize: p, Scheduler: conservativeScheduler{}}
}

// easyPred is EASY with the user-history predictor and no correction.
func easyPred(p int64) Config { return Config{MachineSize: p, Predictor: history()} }

// easyPCor is EASY with p = e and correction (only post-estimate steps act).
func easyPCor(p int64) Config { return Config{MachineSize: p, Corrector: EstimateCorrector{}} }

// easySJBF is EASY with p = e and shortest-job-backfilled-first.
func easySJBF(p int64) Config { return Config{MachineSize: p, Scheduler: sjbf} }

var sjbf = EASYScheduler{Backfill: ByPrediction}

// easyPlus is EASY+: user-history predictions with correction.
func easyPlus(p int64) Config {
	return Config{MachineSize: p, Predictor: history(), Corrector: EstimateCorrector{}}
}

// easyPlusPlus is EASY++: EASY+ with SJBF.
func easyPlusPlus(p int64) Config {
	c := easyPlus(p)
	c.Scheduler = sjbf
	return c
}

// perfectPlusPlus is PERFECT++: p = r with SJBF.
func perfectPlusPlus(p int64) Config {
	return Config{MachineSize: p, Predictor: predict.Perfect{}, Scheduler: sjbf}
}

// x2 predicts 2e, no correction.
func x2(p int64) Config { return Config{MachineSize: p, Predictor: predict.X2{}} }

// x2Plus predicts 2·(history prediction), falling back to 2e, with
// correction towards 2e (S16).
func x2Plus(p int64) Config {
	return Config{MachineSize: p, Predictor: predict.X2{P: history()}, Corrector: EstimateCorrector{}, CorrectionTarget: 2}
}

// x2PlusPlus is X2+ with SJBF.
func x2PlusPlus(p int64) Config {
	c := x2Plus(p)
	c.Scheduler = sjbf
	return c
}

// x2Perf predicts 2r.
func x2Perf(p int64) Config {
	return Config{MachineSize: p, Predictor: predict.X2{P: predict.Perfect{}}}
}

// x2PlusPlusPerf predicts 2r with SJBF.
func x2PlusPlusPerf(p int64) Config {
	c := x2Perf(p)
	c.Scheduler = sjbf
	return c
}

var sjf = EASYScheduler{Queue: ByPrediction, Backfill: ByPrediction}

// sjfPreset gives the reservation to the shortest job by estimate and backfills
// by ascending estimate.
func sjfPreset(p int64) Config { return Config{MachineSize: p, Scheduler: sjf} }

// sjfPlus is SJF+ (= SJF++): history predictions with correction.
func sjfPlus(p int64) Config {
	return Config{MachineSize: p, Scheduler: sjf, Predictor: history(), Corrector: EstimateCorrector{}}
}

// sjfPerf is SJF by actual runtime.
func sjfPerf(p int64) Config {
	return Config{MachineSize: p, Scheduler: sjf, Predictor: predict.Perfect{}}
}

// lxfw is LXF&W backfilling with user estimates (Ch.3 §3.10).
func lxfw(p int64) Config {
	return Config{MachineSize: p, Scheduler: EASYScheduler{Queue: ByLXFW, Backfill: ByLXFW}}
}

// Preset is a named scheduler variant.
type Preset struct {
	Name string // as in the thesis's Tab 4.4, e.g. "EASY++"
	Doc  string // one line
	New  func(machineSize int64) Config
}

var presets = []Preset{
	{"FCFS", "first come first served, no backfilling", fcfs},
	{"EASY", "EASY backfilling with user estimates (the default)", EASY},
	{"EASY_PRED", "EASY with user-history predictions, no correction", easyPred},
	{"EASY_PCOR", "EASY with user estimates and post-estimate correction", easyPCor},
	{"EASY_SJBF", "EASY, shortest job (by estimate) backfilled first", easySJBF},
	{"EASY+", "EASY with user-history predictions and correction", easyPlus},
	{"EASY++", "EASY+ with shortest job (by prediction) backfilled first", easyPlusPlus},
	{"PERFECT++", "EASY with exact run times, SJBF (an oracle)", perfectPlusPlus},
	{"X2", "EASY with doubled estimates", x2},
	{"X2+", "EASY+ with doubled predictions, correction towards 2e", x2Plus},
	{"X2++", "X2+ with SJBF", x2PlusPlus},
	{"X2_perf", "EASY with doubled exact run times (an oracle)", x2Perf},
	{"X2++_perf", "X2_perf with SJBF (an oracle)", x2PlusPlusPerf},
	{"SJF", "shortest job (by estimate) first, backfilling", sjfPreset},
	{"SJF+", "SJF by user-history prediction with correction", sjfPlus},
	{"SJF_perf", "SJF by exact run time (an oracle)", sjfPerf},
	{"LXF&W", "largest expansion factor and wait first, backfilling", lxfw},
	{"Conservative", "conservative backfilling: every waiting job holds a reservation", conservative},
}

// Presets returns every named variant, in the thesis's order (a new slice
// each call).
func Presets() []Preset { return append([]Preset(nil), presets...) }

// presetPunct is what preset names may differ by ("EASY_SJBF", "easy-sjbf").
var presetPunct = strings.NewReplacer("&", "", "_", "", "-", "")

// LookupPreset finds a preset by name, case-insensitively ("easy++",
// "Conservative", "lxf&w"; "lxfw" and "perfect" work too).
func LookupPreset(name string) (Preset, bool) {
	norm := func(s string) string { return presetPunct.Replace(strings.ToLower(s)) }
	for _, p := range presets {
		if norm(p.Name) == norm(name) {
			return p, true
		}
	}
	if norm(name) == "perfect" {
		return LookupPreset("PERFECT++")
	}
	return Preset{}, false
}

package main

import (
	"encoding/json"
	"net/http"

	"github.com/batchq/batchq/qbets/karnak/slurmfeed"
)

// reportJSON is slurmfeed.Report as -json and /slurmfeed/report.json write
// it: with snake_case keys, as every other command's -json ("not_due",
// "mean_abs_log10"; the Report's own tags, kept for the cursor file, are
// camelCase: "notDue", "meanAbsLog10").
type reportJSON struct {
	System      string            `json:"system"`
	Polls       int64             `json:"polls"`
	Batches     int64             `json:"batches"`
	Events      map[string]int64  `json:"events,omitempty"`
	Late        int64             `json:"late"`
	Skipped     map[string]int64  `json:"skipped,omitempty"`
	NotDue      map[string]int64  `json:"not_due,omitempty"`
	Probes      map[string]int64  `json:"probes,omitempty"`
	Degenerate  int64             `json:"degenerate_polls,omitempty"`
	LastDegen   string            `json:"last_degenerate,omitempty"`
	Errors      int64             `json:"errors"`
	LastError   string            `json:"last_error,omitempty"`
	Unpredicted int64             `json:"unpredicted"`
	Methods     []methodJSON      `json:"methods"`
	Jobs        []slurmfeed.Score `json:"jobs,omitempty"`
}

// methodJSON is slurmfeed.Method with snake_case keys (the same fields);
// the mean and the share are null when the method predicted no job, as
// the text's "–" (0 and 0 read as perfect predictions none within ×2).
type methodJSON struct {
	Name         string   `json:"name"`
	Jobs         int64    `json:"jobs"`
	Missing      int64    `json:"missing"`
	MeanAbsLog10 *float64 `json:"mean_abs_log10"`
	Within2      *float64 `json:"within2"`
	SumAbsLog10  float64  `json:"sum_abs_log10"`
	NWithin2     int64    `json:"n_within2"`
}

func toJSON(r *slurmfeed.Report) reportJSON {
	out := reportJSON{System: r.System, Polls: r.Polls, Batches: r.Batches, Events: r.Events, Late: r.Late,
		Skipped: r.Skipped, NotDue: r.NotDue, Probes: r.Probes, Degenerate: r.Degenerate, LastDegen: r.LastDegenerate,
		Errors: r.Errors, LastError: r.LastError,
		Unpredicted: r.Unpredicted, Methods: make([]methodJSON, len(r.Methods)), Jobs: r.Jobs}
	for i, m := range r.Methods {
		out.Methods[i] = methodJSON{Name: m.Name, Jobs: m.Jobs, Missing: m.Missing, SumAbsLog10: m.SumAbsLog10, NWithin2: m.NWithin2}
		if m.Jobs > 0 {
			out.Methods[i].MeanAbsLog10, out.Methods[i].Within2 = &m.MeanAbsLog10, &m.Within2
		}
	}
	return out
}

// reportHandler serves /slurmfeed/report.json: the report as -json
// prints it (snake_case keys), not the Report's camelCase.
func reportHandler(report func() slurmfeed.Report) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		r := report()
		json.NewEncoder(w).Encode(toJSON(&r))
	}
}

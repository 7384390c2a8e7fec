package main

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/batchq/batchq/examples/internal/readme"
	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/qbets"
	"github.com/batchq/batchq/qbets/replay"
	"github.com/batchq/batchq/swf"
)

// The clustering ablation behind qbets's default (README "Why the default
// clusters are fixed"): BM alone (no comparators, qbets.Config's own
// availability handling) under each clustering mode and feature switch,
// on CTC, KTH and SDSC-SP2 as whole logs and SDSC-BLUE's queues 2, 3 and 4.
// qbets/replay's TestClusterModeAblation asserts the reason for the
// default on the same replays.

// ablationMode is one column of the ablation.
type ablationMode struct {
	name string
	cfg  qbets.Config
}

var ablationModes = []ablationMode{
	{"fixed-procs", qbets.Config{}},
	{"none", qbets.Config{Cluster: qbets.ClusterNone}},
	{"nodes", qbets.Config{Cluster: qbets.ClusterNodes}},
	{"nodes≤5", qbets.Config{Cluster: qbets.ClusterNodes, MaxClusters: 5}},
	{"reqtime≤5", qbets.Config{Cluster: qbets.ClusterReqTime, MaxClusters: 5}},
	{"two-level", qbets.Config{Cluster: qbets.ClusterTwoLevel}},
	{"two-level≤3", qbets.Config{Cluster: qbets.ClusterTwoLevel, MaxClusters: 3}},
	{"two-level≤5", qbets.Config{Cluster: qbets.ClusterTwoLevel, MaxClusters: 5}},
	{"two-level, count at release", qbets.Config{Cluster: qbets.ClusterTwoLevel, CountAtRelease: true}},
	{"reqtime", qbets.Config{Cluster: qbets.ClusterReqTime}},
	{"trimming only", qbets.Config{Cluster: qbets.ClusterNone, NoAvailability: true}},
	{"trimming + two-level", qbets.Config{Cluster: qbets.ClusterTwoLevel, NoAvailability: true}},
	{"trimming + nodes", qbets.Config{Cluster: qbets.ClusterNodes, NoAvailability: true}},
}

// ablationSet is one queue history of the ablation.
type ablationSet struct {
	name string // as the README prints it
	jobs []swf.Job
}

// ablationSets loads the ablation's logs and queues from dir.
func ablationSets(dir string) ([]ablationSet, error) {
	load := func(name string) (map[int64][]swf.Job, error) {
		_, jobs, err := swf.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return nil, err
		}
		byQ, _ := replay.Queues(jobs)
		return byQ, nil
	}
	var sets []ablationSet
	for _, name := range []string{tracetest.CTC, tracetest.KTH, tracetest.SDSCSP2} {
		byQ, err := load(name)
		if err != nil {
			return nil, err
		}
		all, err := replay.All(byQ)
		if err != nil {
			return nil, err
		}
		sets = append(sets, ablationSet{tracetest.ShortName(name), all})
	}
	blue, err := load(tracetest.SDSCBlue)
	if err != nil {
		return nil, err
	}
	for _, q := range []int64{2, 3, 4} {
		sets = append(sets, ablationSet{"SDSC-BLUE/" + strconv.FormatInt(q, 10), blue[q]})
	}
	return sets, nil
}

// ablation is every set replayed under every mode: res[set][mode name].
type ablation struct {
	sets []string
	res  []map[string]replay.Result
}

// runAblation replays the sets named in only (all when nil: the README's
// run; the CI slice, TestReadmeSliceSP2, names one).
func runAblation(dir string, only []string, progress io.Writer) (*ablation, error) {
	sets, err := ablationSets(dir)
	if err != nil {
		return nil, err
	}
	a := &ablation{}
	for _, s := range sets {
		if only != nil && !slices.Contains(only, s.name) {
			continue
		}
		fmt.Fprintf(progress, "ablation: %s (%d jobs)\n", s.name, len(s.jobs))
		res := map[string]replay.Result{}
		for _, m := range ablationModes {
			r, err := replay.Replay(s.jobs, replay.Config{Predictor: m.cfg})
			if err != nil {
				return nil, fmt.Errorf("%s, %s: %w", s.name, m.name, err)
			}
			res[m.name] = r
		}
		a.sets = append(a.sets, s.name)
		a.res = append(a.res, res)
	}
	return a, nil
}

func (a *ablation) get(set, mode string) *replay.Result {
	r := a.res[slices.Index(a.sets, set)][mode]
	return &r
}

// cell is "0.939 (78 clusters)" (label true) or "0.939 (78)".
func (a *ablation) cell(set, mode string, label bool) string {
	r := a.get(set, mode)
	if label {
		return fmt.Sprintf("%.3f (%d clusters)", r.Correctness(), len(r.Clusters))
	}
	return fmt.Sprintf("%.3f (%d)", r.Correctness(), len(r.Clusters))
}

// blueName labels SDSC-BLUE's queues as the README does.
var blueName = map[string]string{"SDSC-BLUE/2": "SDSC-BLUE/2 high", "SDSC-BLUE/3": "SDSC-BLUE/3 normal", "SDSC-BLUE/4": "SDSC-BLUE/4 low", "SDSC-SP2": "SDSC-SP2/ALL"}

// regions are the ablation's README regions.
func (a *ablation) regions() map[string][]byte {
	out := map[string][]byte{}
	var b bytes.Buffer
	fmt.Fprintln(&b, "| queue | trimming only | + availability | + two-level clustering | + node clustering | full QBETS, two-level |")
	fmt.Fprintln(&b, "|---|---|---|---|---|---|")
	for _, s := range []string{"SDSC-SP2", "SDSC-BLUE/3", "SDSC-BLUE/2"} {
		a.featuresRow(&b, s)
	}
	out["ablation-features"] = clone(&b)
	fmt.Fprintln(&b, "| queue | two-level, MaxClusters 3 | two-level, MaxClusters 5 | two-level, CountAtRelease | requested time | fixed processor ranges {1–4,5–16,17–64,65+} |")
	fmt.Fprintln(&b, "|---|---|---|---|---|---|")
	for _, s := range []string{"SDSC-SP2", "SDSC-BLUE/3", "SDSC-BLUE/4"} {
		a.settingsRow(&b, s)
	}
	out["ablation-settings"] = clone(&b)
	fmt.Fprintf(&b, "| log | %s |\n|---|%s\n", strings.Join(modeColumns, " | "), strings.Repeat("---|", len(modeColumns)))
	for _, s := range a.sets {
		a.modesRow(&b, s)
	}
	out["cluster-modes"] = clone(&b)
	a.reading(&b)
	out["ablation-reading"] = clone(&b)
	return out
}

// The rows of the ablation's tables, one set each (the CI slice,
// TestReadmeSliceSP2, prints one set's).

func (a *ablation) featuresRow(w io.Writer, s string) {
	fmt.Fprintf(w, "| %s | %.3f | %.3f | %s | %s | %s |\n", blueName[s],
		a.get(s, "trimming only").Correctness(), a.get(s, "none").Correctness(),
		a.cell(s, "trimming + two-level", true), a.cell(s, "trimming + nodes", false), a.cell(s, "two-level", false))
}

func (a *ablation) settingsRow(w io.Writer, s string) {
	fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s |\n", blueName[s],
		a.cell(s, "two-level≤3", s == "SDSC-SP2"), a.cell(s, "two-level≤5", false), a.cell(s, "two-level, count at release", false),
		a.cell(s, "reqtime", false), a.cell(s, "fixed-procs", false))
}

// modeColumns are the columns of the cluster-modes table.
var modeColumns = []string{"fixed-procs", "none", "nodes", "nodes≤5", "reqtime≤5", "two-level"}

func (a *ablation) modesRow(w io.Writer, s string) {
	fmt.Fprintf(w, "| %s |", s)
	for _, m := range modeColumns {
		fmt.Fprintf(w, " %.3f |", a.get(s, m).Correctness())
	}
	fmt.Fprintln(w)
}

// reading prints the sentences that quote the ablation.
func (a *ablation) reading(w io.Writer) {
	blue := []string{"SDSC-BLUE/2", "SDSC-BLUE/3", "SDSC-BLUE/4"}
	var two, loss, clusters []float64
	for _, s := range a.sets {
		t := a.get(s, "two-level")
		clusters = append(clusters, float64(len(t.Clusters)))
		loss = append(loss, a.get(s, "trimming only").Correctness()-a.get(s, "trimming + two-level").Correctness())
		if slices.Contains(blue, s) {
			two = append(two, t.Correctness())
		}
	}
	fixedOK := 0
	for _, s := range a.sets {
		if a.get(s, "fixed-procs").Correctness() >= 0.95 {
			fixedOK++
		}
	}
	rms := func(s, m string) string {
		r := a.get(s, m)
		return fmt.Sprintf("%.0fk s", r.RMS()/1000)
	}
	fmt.Fprintf(w, "With the two-level clustering, full QBETS BM is %s on SDSC-BLUE high/normal/low; against trimming alone, the two-level clustering (without availability) costs up to %.1f points over these %d logs and queues. It makes %s clusters per log or queue in full QBETS (the thesis: \"three to five\"). The fixed ranges keep BM correct on %d of the %d, with tighter bounds than one queue-level history: RMS over-prediction CTC %s against %s, SDSC-SP2 %s against %s.\n",
		readme.Span("%.3f", two), 100*slices.Max(loss), len(a.sets), readme.Span("%.0f", clusters), fixedOK, len(a.sets),
		rms("CTC-SP2", "fixed-procs"), rms("CTC-SP2", "none"), rms("SDSC-SP2", "fixed-procs"), rms("SDSC-SP2", "none"))
}

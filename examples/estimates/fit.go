package main

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/batchq/batchq/estmodel"
	"github.com/batchq/batchq/swf"
)

// fitLog is one of the four logs the thesis models (Tab 5.1), with its
// published numbers.
type fitLog struct {
	name  string
	trace string  // short name of the trace (the Ch. 5 variants select their jobs)
	n, k  int     // Tab 5.1: sane jobs and distinct estimates
	share float64 // Tab 5.5: % at E_max (BLUE: at 36 h)
	cover []int   // Tab 5.2 row
}

var coverLevels = []float64{10, 50, 75, 90, 95, 98, 99, 100}

var fitLogs = []fitLog{
	{"SDSC-106", "sdsc106", 53673, 339, 9.8, []int{1, 6, 12, 22, 39, 77, 116, 339}},
	{"CTC", "ctc", 77222, 265, 23.8, []int{1, 4, 10, 22, 36, 62, 89, 265}},
	{"KTH4H", "kth4h", 23070, 106, 12.5, []int{1, 6, 12, 21, 28, 36, 43, 106}},
	{"BLUE", "blue", 223407, 525, 1.1, []int{1, 3, 8, 23, 42, 76, 116, 563}},
}

// withoutOwnedModes is the SDSC-106 cleaning (§5.6): the user who "owns"
// the most estimate values (values nobody else uses; user 106 in the thesis's
// copy of SDSC, 204 of 543) loses the jobs that use those values. A job
// without a user (−1) neither owns a value nor shares one: the user-less
// jobs are no one user, and a log where no user owns a value loses none.
func withoutOwnedModes(jobs []swf.Job) []swf.Job {
	owner := map[int64]int64{} // estimate → its only user, or -2 when shared
	for i := range jobs {
		e, u := jobs[i].ReqTime, jobs[i].User
		if u < 0 {
			continue
		}
		if o, ok := owner[e]; !ok {
			owner[e] = u
		} else if o != u {
			owner[e] = -2
		}
	}
	owned := map[int64]int{}
	for _, u := range owner {
		if u != -2 {
			owned[u]++
		}
	}
	top, most := int64(-1), 0
	for u, n := range owned {
		if n > most || (n == most && u < top) {
			top, most = u, n
		}
	}
	if most == 0 {
		return jobs
	}
	return slices.DeleteFunc(jobs, func(j swf.Job) bool { return j.User == top && owner[j.ReqTime] == top })
}

// estimateAtMost is the KTH4H selection (S12).
func estimateAtMost(e int64) func([]swf.Job) []swf.Job {
	return func(jobs []swf.Job) []swf.Job {
		return slices.DeleteFunc(jobs, func(j swf.Job) bool { return !j.HasEstimate() || j.ReqTime > e })
	}
}

// topModes gives the k most popular estimates other than E_max their real share.
func topModes(k int) func([]swf.Job, int64) []estmodel.UserBin {
	return func(jobs []swf.Job, eMax int64) []estmodel.UserBin {
		var bins []estmodel.UserBin
		for _, b := range byPopularity(histogram(estimates(jobs))) {
			if len(bins) == k {
				break
			}
			if b.Time != eMax {
				bins = append(bins, estmodel.UserBin{Time: b.Time, Percent: b.Percent})
			}
		}
		return bins
	}
}

// aggregateUpTo puts all estimates ≤ t into one bin at t (KTH4H: 5 minutes).
func aggregateUpTo(t int64) func([]swf.Job, int64) []estmodel.UserBin {
	return func(jobs []swf.Job, _ int64) []estmodel.UserBin {
		n := 0
		for i := range jobs {
			if jobs[i].ReqTime >= 0 && jobs[i].ReqTime <= t {
				n++
			}
		}
		return []estmodel.UserBin{{Time: t, Percent: 100 * float64(n) / float64(len(jobs))}}
	}
}

// fixedModes gives the named estimates their real share (BLUE: 15 and 30 min).
func fixedModes(ts ...int64) func([]swf.Job, int64) []estmodel.UserBin {
	return func(jobs []swf.Job, _ int64) []estmodel.UserBin {
		var bins []estmodel.UserBin
		for _, t := range ts {
			bins = append(bins, estmodel.UserBin{Time: t, Percent: shareAt(jobs, t)})
		}
		return bins
	}
}

func estimates(jobs []swf.Job) []int64 {
	e := make([]int64, len(jobs))
	for i := range jobs {
		e[i] = jobs[i].ReqTime
	}
	return e
}

// ksDistance is the largest vertical distance between the CDFs of two
// estimate histograms (the Fig 5.11/5.12 comparison as one number).
func ksDistance(a, b []estmodel.Bin) float64 {
	var na, nb int
	for _, x := range a {
		na += x.Jobs
	}
	for _, x := range b {
		nb += x.Jobs
	}
	i, j, ca, cb, d := 0, 0, 0, 0, 0.0
	for i < len(a) || j < len(b) {
		t := int64(math.MaxInt64)
		if i < len(a) {
			t = a[i].Time
		}
		if j < len(b) {
			t = min(t, b[j].Time)
		}
		for i < len(a) && a[i].Time == t {
			ca += a[i].Jobs
			i++
		}
		for j < len(b) && b[j].Time == t {
			cb += b[j].Jobs
			j++
		}
		d = max(d, math.Abs(float64(ca)/float64(na)-float64(cb)/float64(nb)))
	}
	return d
}

// meanMAD returns the mean and the mean absolute deviation from it (the
// thesis's error bars in Ch. 5).
func meanMAD(x []float64) (mean, mad float64) {
	for _, v := range x {
		mean += v
	}
	mean /= float64(len(x))
	for _, v := range x {
		mad += math.Abs(v - mean)
	}
	return mean, mad / float64(len(x))
}

// fitSettings returns the vanilla and improved model settings of a log.
func fitSettings(l fitLog, jobs []swf.Job) (vanl, impr estmodel.ModalConfig) {
	set := vanilla(l.trace, jobs)
	vanl = estmodel.ModalConfig{N: len(jobs), EMax: set.EMax, Bins: set.Bins}
	impr = vanl
	impr.Bins = append(slices.Clone(set.Bins), improved(l.trace)(jobs, set.EMax)...)
	return vanl, impr
}

// fitRow is the distribution validation of one log.
type fitRow struct {
	log             fitLog
	n, k, kModel    int
	share           float64
	vanl, impr      estmodel.ModalConfig
	ksV, madV       float64 // KS distance to the log, vanilla setting: mean and MAD over seeds
	ksI, madI       float64 // the same, improved setting
	cover, coverMod []int
}

// fitRows compares the model's estimate distribution with each of the four
// modelled logs (§5.12.1, Tab 5.1, 5.2) over the given number of seeds.
func fitRows(seeds int) ([]fitRow, error) {
	var rows []fitRow
	for _, l := range fitLogs {
		tr, err := loadTrace(l.trace, 0, false)
		if err != nil {
			return nil, err
		}
		jobs := tr.jobs
		real := histogram(estimates(jobs))
		r := fitRow{log: l, n: len(jobs), k: len(real), cover: coverOf(real)}
		r.vanl, r.impr = fitSettings(l, jobs)
		r.share = shareAt(jobs, r.vanl.EMax)
		var ksV, ksI []float64
		for s := range seeds {
			for _, c := range []struct {
				cfg estmodel.ModalConfig
				ks  *[]float64
			}{{r.vanl, &ksV}, {r.impr, &ksI}} {
				d, err := estmodel.Generate(c.cfg, rand.New(rand.NewPCG(uint64(s), 77)))
				if err != nil {
					return nil, fmt.Errorf("%s: %w", l.name, err)
				}
				if r.coverMod == nil {
					r.coverMod, r.kModel = coverOf(d.Bins), len(d.Bins)
				}
				*c.ks = append(*c.ks, ksDistance(real, d.Bins))
			}
		}
		r.ksV, r.madV = meanMAD(ksV)
		r.ksI, r.madI = meanMAD(ksI)
		rows = append(rows, r)
	}
	return rows, nil
}

// runFit prints the distribution validation as markdown.
func runFit(out, _ io.Writer, seeds int) error {
	rows, err := fitRows(seeds)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "Distribution fit, %d seeds: KS = largest CDF distance between the log's estimates and the model's.\n\n", seeds)
	fmt.Fprintln(out, "| log | sane N thesis / ours | K thesis / log / model | E_max | E_max share thesis / ours | vanl bins | impr extra bins | KS vanl (mean ± MAD) | KS impr (mean ± MAD) |")
	fmt.Fprintln(out, "|---|---|---|---|---|---|---|---|---|")
	for _, r := range rows {
		fmt.Fprintf(out, "| %s | %d / %d | %d / %d / %d | %s | %.1f%% / %.1f%% | %s | %s | %.3f ± %.3f | %.3f ± %.3f |\n",
			r.log.name, r.log.n, r.n, r.log.k, r.k, r.kModel, hms(r.vanl.EMax), r.log.share, r.share,
			binsString(r.vanl.Bins), binsString(r.impr.Bins[len(r.vanl.Bins):]), r.ksV, r.madV, r.ksI, r.madI)
	}
	fmt.Fprintln(out, "\nMass disparity (Tab 5.2): the least number of bins holding a given share of the jobs.")
	fmt.Fprintln(out, "\n| log | source | 10% | 50% | 75% | 90% | 95% | 98% | 99% | 100% |")
	fmt.Fprintln(out, "|---|---|---|---|---|---|---|---|---|---|")
	for _, r := range rows {
		fmt.Fprintf(out, "| %s | thesis | %s |\n| | log | %s |\n| | model (vanl, seed 0) | %s |\n", r.log.name,
			joinInts(r.log.cover), joinInts(r.cover), joinInts(r.coverMod))
	}
	return nil
}

func hms(t int64) string {
	if t%3600 == 0 {
		return fmt.Sprintf("%dh", t/3600)
	}
	return fmt.Sprintf("%d:%02d", t/3600, t%3600/60)
}

func binsString(bins []estmodel.UserBin) string {
	s := make([]string, len(bins))
	for i, b := range bins {
		s[i] = fmt.Sprintf("%s %.1f%%", hms(b.Time), b.Percent)
	}
	return strings.Join(s, ", ")
}

func coverOf(bins []estmodel.Bin) []int {
	c := make([]int, len(coverLevels))
	for i, p := range coverLevels {
		c[i] = binsCovering(bins, p)
	}
	return c
}

func joinInts(x []int) string {
	s := make([]string, len(x))
	for i, v := range x {
		s[i] = fmt.Sprint(v)
	}
	return strings.Join(s, " | ")
}

package main

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/batchq/batchq/examples/internal/readme"
	"github.com/batchq/batchq/internal/tracetest"
)

// The README's tables and the sentences quoting them, generated from the
// command's cells and checked by TestReadme*. Every cell re-plans every
// 30 s (-every 30), as the README's runs do.

// logSpec is one workload of the README: a trace and its first jobs sane
// jobs (0: all).
type logSpec struct {
	trace string
	jobs  int
}

var (
	blue50k = logSpec{tracetest.SDSCBlue, 50000}
	blueAll = logSpec{tracetest.SDSCBlue, 0}
	ctcAll  = logSpec{tracetest.CTC, 0}
	sp2All  = logSpec{tracetest.SDSCSP2, 0}
	kthAll  = logSpec{tracetest.KTH, 0}
)

// cellSpec is one simulation of the README.
type cellSpec struct {
	log                   logSpec
	frac, target          float64
	crowd                 string
	seed                  uint64
	unsync, noavail, diag bool
}

// study computes the README's cells on demand and keeps them.
type study struct {
	dir      string // the traces
	progress io.Writer
	loads    map[logSpec]workload
	bases    map[logSpec]cell
	cells    map[cellSpec]cell
	err      error // the first failure; later cells are not run
}

func newStudy(dir string, progress io.Writer) *study {
	return &study{dir: dir, progress: progress, loads: map[logSpec]workload{}, bases: map[logSpec]cell{}, cells: map[cellSpec]cell{}}
}

func (st *study) load(l logSpec) workload {
	if w, ok := st.loads[l]; ok || st.err != nil {
		return w
	}
	w, err := loadWorkload(filepath.Join(st.dir, l.trace), l.jobs, 0, false)
	if err != nil {
		st.err = err
	}
	st.loads[l] = w
	return w
}

func (st *study) base(l logSpec) cell {
	if c, ok := st.bases[l]; ok || st.err != nil {
		return c
	}
	c, err := simulate(st.load(l), 0, 0.5, options{seed: 1, every: 30})
	if err != nil {
		st.err = err
	}
	st.bases[l] = c
	return c
}

// get returns a cell (seed 1 when s.seed is 0), simulating it the first
// time.
func (st *study) get(s cellSpec) cell {
	if s.seed == 0 {
		s.seed = 1
	}
	if s.crowd == "" {
		s.crowd = "off"
	}
	// The diagnosis does not change a cell (it only asks the forecaster),
	// so the 10 % cells it is read from are one simulation with and
	// without it.
	if s.frac == 0.10 && s.seed == 1 && (s.log == blue50k || s.log == blueAll || s.log == ctcAll) {
		s.diag = true
	}
	if c, ok := st.cells[s]; ok || st.err != nil {
		return c
	}
	w := st.load(s.log)
	if st.err != nil {
		return cell{}
	}
	o := options{seed: s.seed, every: 30, crowd: s.crowd, unsync: s.unsync, noAvail: s.noavail}
	if s.diag {
		o.diag = io.Discard
	}
	fmt.Fprintf(st.progress, "varq: %s %d jobs, %.0f%%, %.2f, crowd %v, seed %d, unsync %v, noavail %v, diag %v\n",
		tracetest.ShortName(s.log.trace), s.log.jobs, 100*s.frac, s.target, s.crowd, s.seed, s.unsync, s.noavail, s.diag)
	c, err := simulate(w, s.frac, s.target, o)
	if err != nil {
		st.err = err
	}
	st.cells[s] = c
	return c
}

// ten is a 10 % cell of the thesis's method or a crowd mode.
func ten(l logSpec, target float64, crowd string) cellSpec {
	return cellSpec{log: l, frac: 0.10, target: target, crowd: crowd}
}

// regions computes every long region of the README.
func (st *study) regions() (map[string][]byte, error) {
	out := map[string][]byte{}
	for _, r := range []struct {
		name string
		f    func(io.Writer)
	}{
		{"status", st.status}, {"crowd-blue", func(w io.Writer) { st.crowdTable(w, blue50k) }},
		{"crowd-ctc", func(w io.Writer) { st.crowdTable(w, ctcAll) }}, {"status-reading", st.statusReading},
		{"seeds", st.seeds}, {"crowd-contention", st.crowdContention}, {"crowd-reading", st.crowdReading},
		{"measured", st.measured}, {"coverage", st.coverage}, {"silence", st.silence},
		{"contention", st.contention}, {"variants", st.variants}, {"figure", st.figure},
	} {
		var b bytes.Buffer
		r.f(&b)
		if st.err != nil {
			return nil, st.err
		}
		out[r.name] = b.Bytes()
	}
	return out, nil
}

// short is a log's name as the tables print it.
func short(l logSpec) string { return tracetest.ShortName(l.trace) }

// jobsLabel is "first 50,000" or "all 77,222".
func (st *study) jobsLabel(l logSpec) string {
	n := len(st.load(l).jobs)
	if l.jobs > 0 {
		return "first " + readme.Thousands(n)
	}
	return "all " + readme.Thousands(n)
}

// achieved is a cell's success, bold when below target − 0.05.
func achieved(c cell) string {
	s := fmt.Sprintf("%.2f", c.Success)
	if c.Success < c.target-0.05 {
		return "**" + s + "**"
	}
	return s
}

// status prints the acceptance table: 10 % cells, thesis method →
// crowd-aware planning, on four logs.
func (st *study) status(w io.Writer) {
	fmt.Fprintln(w, "| log | jobs | 0.50 | 0.75 | 0.95 |")
	fmt.Fprintln(w, "|---|---|---|---|---|")
	for _, l := range []logSpec{blue50k, sp2All, ctcAll, kthAll} {
		st.statusRow(w, l)
	}
}

// statusRow prints the status table's row of log l (the CI slice,
// TestReadmeSliceKTH, prints KTH-SP2's alone).
func (st *study) statusRow(w io.Writer, l logSpec) {
	fmt.Fprintf(w, "| %s | %s |", short(l), st.jobsLabel(l))
	for _, q := range targets {
		off, pl := st.get(ten(l, q, "off")), st.get(ten(l, q, "planned"))
		fmt.Fprintf(w, " %s → %s", achieved(off), achieved(pl))
		if q == 0.95 {
			fmt.Fprintf(w, " (%d accepted)", pl.Count)
		}
		fmt.Fprint(w, " |")
	}
	fmt.Fprintln(w)
}

// met reports whether every 10 % cell of planning mode m on l is at least
// its target − 0.05, and the shortfalls of those that are not.
func (st *study) met(l logSpec, m string) (bool, []string) {
	var gaps []string
	for _, q := range targets {
		c := st.get(ten(l, q, m))
		if c.Success < q-0.05 {
			gaps = append(gaps, fmt.Sprintf("%.2f at %.2f (%.2f short, %d accepted)", c.Success, q, q-c.Success, c.Count))
		}
	}
	return len(gaps) == 0, gaps
}

// statusReading prints the verdict per log and mode.
func (st *study) statusReading(w io.Writer) {
	for _, m := range []string{"off", "planned"} {
		var ok, not []string
		for _, l := range []logSpec{blue50k, sp2All, ctcAll, kthAll} {
			if met, gaps := st.met(l, m); met {
				ok = append(ok, short(l))
			} else {
				not = append(not, fmt.Sprintf("%s (%s)", short(l), strings.Join(gaps, "; ")))
			}
		}
		label := "The thesis's method (`-crowd off`)"
		if m == "planned" {
			label = "Crowd-aware planning (`-crowd planned`)"
		}
		fmt.Fprintf(w, "- **%s** meets it on %s; not on %s.\n", label, orNone(ok), orNone(not))
	}
	seedsOK := map[logSpec][]string{}
	for _, l := range []logSpec{blue50k, ctcAll} {
		for _, seed := range []uint64{2, 3} {
			var cells []string
			for _, q := range targets {
				s := ten(l, q, "planned")
				s.seed = seed
				cells = append(cells, fmt.Sprintf("%.2f", st.get(s).Success))
			}
			seedsOK[l] = append(seedsOK[l], fmt.Sprintf("seed %d %s", seed, strings.Join(cells, "/")))
		}
	}
	fmt.Fprintf(w, "- Other selections of VARQ jobs with `-crowd planned` (table below): SDSC-BLUE %s; CTC-SP2 %s.\n",
		strings.Join(seedsOK[blue50k], ", "), strings.Join(seedsOK[ctcAll], ", "))
	var all []string
	for _, q := range targets {
		off, pl := st.get(ten(blueAll, q, "off")), st.get(ten(blueAll, q, "planned"))
		all = append(all, fmt.Sprintf("%.2f → %.2f (%d → %d accepted, used/required %.2f → %.2f)", off.Success, pl.Success, off.Count, pl.Count, off.Ratio(), pl.Ratio()))
	}
	fmt.Fprintf(w, "- The whole SDSC-BLUE log (%s sane jobs), 10 %%, `off` → `planned`: %s.\n", readme.Thousands(len(st.load(blueAll).jobs)), strings.Join(all, ", "))
}

func orNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}

// crowdTable prints every fraction, target and planning mode of one log.
func (st *study) crowdTable(w io.Writer, l logSpec) {
	fmt.Fprintln(w, "| % VARQ | target | planning | pred | thesis | act | thesis | count | thesis | refused | used/req | mean wait |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|---|---|")
	for fi, f := range fractions {
		modes := []string{"off", "queued", "planned"}
		if f == 0.10 {
			modes = append(modes, "accepted")
		}
		for ti, q := range targets {
			th := table56[fi][ti]
			for _, m := range modes {
				c := st.get(cellSpec{log: l, frac: f, target: q, crowd: m})
				name, act := m, fmt.Sprintf("%.2f", c.Success)
				if m == "planned" {
					name, act = "**"+name+"**", "**"+act+"**"
				}
				fmt.Fprintf(w, "| %.0f | %.2f | %s | %.2f | %.2f | %s | %.2f | %d | %d | %d | %.2f | %.0f s |\n",
					100*f, q, name, c.MeanPred, th.Pred, act, th.Act, c.Count, th.Count, c.Refused, c.Ratio(), c.wait)
			}
		}
	}
}

// seeds prints the 10 % cells for seeds 1–3, thesis method → planned.
func (st *study) seeds(w io.Writer) {
	fmt.Fprintln(w, "| log | seed | 0.50 | 0.75 | 0.95 |")
	fmt.Fprintln(w, "|---|---|---|---|---|")
	for _, l := range []logSpec{blue50k, ctcAll} {
		for _, seed := range []uint64{1, 2, 3} {
			fmt.Fprintf(w, "| %s | %d |", short(l), seed)
			for _, q := range targets {
				off, pl := ten(l, q, "off"), ten(l, q, "planned")
				off.seed, pl.seed = seed, seed
				a, b := st.get(off), st.get(pl)
				fmt.Fprintf(w, " %.2f (%d) → %.2f (%d) |", a.Success, a.Count, b.Success, b.Count)
			}
			fmt.Fprintln(w)
		}
	}
}

// diagTen is the 10 % diagnosis cell of SDSC-BLUE's first 50,000 jobs.
func diagTen(q float64, m string) cellSpec {
	s := ten(blue50k, q, m)
	s.diag = true
	return s
}

// rate is a tally's success rate, "–" when it is empty.
func rate(t tally) string {
	if t.n == 0 {
		return "–"
	}
	return fmt.Sprintf("%.2f", t.rate())
}

func rateCell(t tally) string {
	if t.n == 0 {
		return "– (0)"
	}
	return fmt.Sprintf("%.3f (%d)", t.rate(), t.n)
}

// crowdContention prints success by same-start jobs queued, off → planned.
func (st *study) crowdContention(w io.Writer) {
	fmt.Fprintln(w, "| target | 0 queued | 1 | 2 | 3+ |")
	fmt.Fprintln(w, "|---|---|---|---|---|")
	for _, q := range targets {
		off, pl := st.get(diagTen(q, "off")).diag, st.get(diagTen(q, "planned")).diag
		fmt.Fprintf(w, "| %.2f |", q)
		for k := range off.queued {
			fmt.Fprintf(w, " %s → %s |", rateCell(off.queued[k]), rateCell(pl.queued[k]))
		}
		fmt.Fprintln(w)
	}
}

// crowdReading prints the numbers behind "What the crowd changes" and its
// cost.
func (st *study) crowdReading(w io.Writer) {
	line := func(label string, f func(string, float64) string, modes ...string) {
		var parts []string
		for _, m := range modes {
			var cells []string
			for _, q := range targets {
				cells = append(cells, f(m, q))
			}
			parts = append(parts, fmt.Sprintf("`%v` %s", m, strings.Join(cells, "/")))
		}
		fmt.Fprintf(w, "- %s: %s.\n", label, strings.Join(parts, "; "))
	}
	all := []string{"off", "queued", "planned", "accepted"}
	d := func(m string, q float64) *diagResult { return st.get(diagTen(q, m)).diag }
	line("Padded jobs submitted while QBETS was silent succeed (SDSC-BLUE, 10 %)", func(m string, q float64) string {
		return rate(d(m, q).silent)
	}, "off", "planned")
	line("Padded jobs submitted with a bound succeed", func(m string, q float64) string {
		return rate(d(m, q).answered)
	}, "off", "planned")
	line("Plans submitted below the target (argmax fallback), and the share of them that succeed", func(m string, q float64) string {
		t := d(m, q).fellBack
		if t.n == 0 {
			return "0"
		}
		return fmt.Sprintf("%d (%.0f%%)", t.n, 100*t.rate())
	}, all...)
	line("Jobs submitted into a crowd of 3+ succeed", func(m string, q float64) string {
		return rate(d(m, q).queued[3])
	}, all...)
	for _, l := range []logSpec{blue50k, ctcAll} {
		for _, m := range []string{"off", "planned"} {
			var parts []string
			for _, q := range targets {
				var vs []string
				for _, f := range fractions {
					vs = append(vs, fmt.Sprintf("%.2f", st.get(cellSpec{log: l, frac: f, target: q, crowd: m}).Success))
				}
				parts = append(parts, fmt.Sprintf("%s at %.2f", strings.Join(vs, " → "), q))
			}
			fmt.Fprintf(w, "- Achieved from 10 %% to 50 %% to 95 %% VARQ jobs, %s, `%v`: %s.\n", short(l), m, strings.Join(parts, ", "))
		}
	}
	for _, l := range []logSpec{blue50k, ctcAll} {
		var ratio, refused, wait []string
		for _, f := range fractions {
			for _, q := range targets {
				off, pl := st.get(cellSpec{log: l, frac: f, target: q}), st.get(cellSpec{log: l, frac: f, target: q, crowd: "planned"})
				ratio = append(ratio, fmt.Sprintf("%.2f→%.2f", off.Ratio(), pl.Ratio()))
				refused = append(refused, fmt.Sprintf("%d→%d", off.Refused, pl.Refused))
				wait = append(wait, fmt.Sprintf("%+.0f%%", 100*(pl.wait/off.wait-1)))
			}
		}
		fmt.Fprintf(w, "- Cost on %s, `off` → `planned`, cells in table order (10 %%, 50 %%, 95 %%; each at 0.50/0.75/0.95): used/required %s; refused %s; mean wait of all jobs %s.\n",
			short(l), strings.Join(ratio, ", "), strings.Join(refused, ", "), strings.Join(wait, ", "))
	}
}

// measured prints the command's output for the thesis's method on both
// logs: `-every 30`, SDSC-BLUE's first 50,000 sane jobs and CTC-SP2.
func (st *study) measured(w io.Writer) {
	fmt.Fprintln(w, "```")
	for i, l := range []logSpec{blue50k, ctcAll} {
		if i > 0 {
			fmt.Fprintln(w)
		}
		printHeader(w, st.load(l), st.base(l), "off")
		for _, f := range fractions {
			for _, q := range targets {
				printRow(w, st.get(cellSpec{log: l, frac: f, target: q}), st.base(l))
			}
		}
	}
	fmt.Fprintln(w, "```")
}

func cov(c *covStat) string {
	if c == nil || c.n == 0 {
		return "–"
	}
	return fmt.Sprintf("%.2f", float64(c.in)/float64(c.n))
}

// coverage prints the forecaster's coverage at submission by shape
// (SDSC-BLUE, 50,000 jobs, 10 %, thesis method).
func (st *study) coverage(w io.Writer) {
	fmt.Fprintln(w, "| q | ordinary, all | by size 1–8 / 9–64 / 65–256 / > 256 | by walltime ≤ 1 h / 1–4 h / 4–12 h / > 12 h | padded VARQ |")
	fmt.Fprintln(w, "|---|---|---|---|---|")
	for _, q := range targets {
		d := st.get(diagTen(q, "off")).diag
		var size, wall []string
		for _, k := range []string{"a 1–8", "b 9–64", "c 65–256", "d > 256"} {
			size = append(size, cov(d.bySize[k]))
		}
		for _, k := range []string{"a ≤ 1 h", "b 1–4 h", "c 4–12 h", "d > 12 h"} {
			wall = append(wall, cov(d.byWall[k]))
		}
		fmt.Fprintf(w, "| %.2f | %.3f | %s | %s | %.3f |\n", q, float64(d.ordinary.in)/float64(max(d.ordinary.n, 1)),
			strings.Join(size, " / "), strings.Join(wall, " / "), float64(d.padded.in)/float64(max(d.padded.n, 1)))
	}
}

// silence prints the padded jobs' success with a bound and while silent.
func (st *study) silence(w io.Writer) {
	fmt.Fprintln(w, "| target | submitted with a bound | submitted while QBETS was silent |")
	fmt.Fprintln(w, "|---|---|---|")
	for _, q := range targets {
		d := st.get(diagTen(q, "off")).diag
		fmt.Fprintf(w, "| %.2f | %s | %s |\n", q, rateCell(d.answered), rateCell(d.silent))
	}
}

// contention prints success by same-start VARQ jobs already queued.
func (st *study) contention(w io.Writer) {
	fmt.Fprintln(w, "| target | 0 queued | 1 | 2 | 3+ |")
	fmt.Fprintln(w, "|---|---|---|---|---|")
	for _, q := range targets {
		d := st.get(diagTen(q, "off")).diag
		fmt.Fprintf(w, "| %.2f |", q)
		for _, t := range d.queued {
			fmt.Fprintf(w, " %s |", rateCell(t))
		}
		fmt.Fprintln(w)
	}
}

// variants prints the diagnostic runs of the 10 % cells: the thesis's
// set-up against own start times, no availability inference, the whole
// log, and CTC-SP2.
func (st *study) variants(w io.Writer) {
	fmt.Fprintln(w, "| run (10 % VARQ jobs, thesis method unless said) | achieved 0.50 / 0.75 / 0.95 | accepted | padded jobs submitted with a bound: success (jobs) | padded, while silent | no bound at submission |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|")
	for _, v := range []struct {
		label string
		spec  func(q float64) cellSpec
	}{
		{"SDSC-BLUE, " + st.jobsLabel(blue50k) + " jobs", func(q float64) cellSpec { return diagTen(q, "off") }},
		{"same, own start times (`-unsync`)", func(q float64) cellSpec { s := diagTen(q, "off"); s.unsync = true; return s }},
		{"same, no availability inference (`-noavail`)", func(q float64) cellSpec { s := diagTen(q, "off"); s.noavail = true; return s }},
		{"SDSC-BLUE, all " + readme.Thousands(len(st.load(blueAll).jobs)) + " jobs", func(q float64) cellSpec { s := ten(blueAll, q, "off"); s.diag = true; return s }},
		{"CTC-SP2", func(q float64) cellSpec { s := ten(ctcAll, q, "off"); s.diag = true; return s }},
		{"CTC-SP2, own start times (`-unsync`)", func(q float64) cellSpec {
			s := ten(ctcAll, q, "off")
			s.diag = true
			s.unsync = true
			return s
		}},
		{"CTC-SP2, `-crowd planned`", func(q float64) cellSpec { s := ten(ctcAll, q, "planned"); s.diag = true; return s }},
	} {
		var ach, acc, with, silent, none []string
		for _, q := range targets {
			c := st.get(v.spec(q))
			d := c.diag
			ach = append(ach, fmt.Sprintf("%.2f", c.Success))
			acc = append(acc, fmt.Sprint(c.Count))
			with = append(with, rateCell(d.answered))
			silent = append(silent, rateCell(d.silent))
			all := d.ordinary.n + d.ordinary.none + d.padded.n + d.padded.none
			none = append(none, fmt.Sprintf("%.0f%%", 100*float64(d.ordinary.none+d.padded.none)/float64(max(all, 1))))
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s |\n", v.label, strings.Join(ach, " / "), strings.Join(acc, " / "),
			strings.Join(with, " / "), strings.Join(silent, " / "), strings.Join(none, " / "))
	}
}

// figure prints what the Figure 5.4 probe computed: `-jobs 50000 -every 30
// -fractions 0.1 -targets 0.5 -plot DIR` on SDSC-BLUE.
func (st *study) figure(w io.Writer) {
	p := &trajProbe{}
	if _, err := simulate(st.load(blue50k), 0.10, 0.50, options{seed: 1, every: 30, probe: p}); err != nil {
		st.err = err
		return
	}
	fmt.Fprintf(w, "```\n%s\n```\n\n", p.summary())
	fmt.Fprintf(w, "Asked at day %.0f of the log.", float64(p.now-p.first)/86400)
	if p.plan.Possible {
		_, worstExtra := p.plan.Cost()
		fmt.Fprintf(w, " Min-overhead mode submits at +%.2f h, the latest point at or above %.2f, and pays at most %d × %d s = %s node-s extra.",
			float64(p.plan.Submit-p.now)/3600, probeTarget, p.req.Nodes, p.plan.Walltime-p.req.Walltime, readme.Thousands(int(worstExtra)))
	}
	if p.best.Possible {
		fmt.Fprintf(w, " Max-probability mode would submit at +%.2f h (p = %.2f) and risk %d processors × %.1f h.",
			float64(p.best.Submit-p.now)/3600, p.best.Prob, p.req.Nodes, float64(p.req.Start-p.best.Submit)/3600)
	}
	fmt.Fprintln(w)
}

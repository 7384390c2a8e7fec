package main

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/readme"
	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/swf"
)

// regionRows reads the markdown table of a README region as printed: the
// cells of each row after the header and its rule, keyed by the first two
// cells (a row whose first cell is empty continues the pod list above it).
func regionRows(t *testing.T, name string) map[string][]string {
	t.Helper()
	rows := map[string][]string{}
	list := ""
	for _, l := range strings.Split(readme.RegionOf(t, "README.md", name), "\n") {
		if !strings.HasPrefix(l, "|") || strings.HasPrefix(l, "|---") {
			continue
		}
		cells := strings.Split(strings.Trim(l, "|"), "|")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		if cells[0] != "" {
			list = cells[0]
		}
		if len(cells) > 1 {
			rows[list+"/"+cells[1]] = cells
		}
	}
	return rows
}

// cell is row key's column i as a number.
func cell(t *testing.T, rows map[string][]string, key string, i int) float64 {
	t.Helper()
	r, ok := rows[key]
	if !ok || i >= len(r) {
		t.Fatalf("no row %q with a column %d", key, i)
	}
	first, _, _ := strings.Cut(r[i], " ") // "19677 (19677 memory)": the count
	v, err := strconv.ParseFloat(strings.ReplaceAll(first, ",", ""), 64)
	if err != nil {
		t.Fatalf("row %q column %d: %v", key, i, err)
	}
	return v
}

// pct is a share as the prose writes it: whole percent.
func pct(v float64) string { return fmt.Sprintf("%.0f%%", 100*v) }

// TestReadmeProse checks the figures the README's prose quotes from its
// generated tables (Alibaba, LANL-CM5) against the tables as printed, so
// that regenerating a table cannot leave its sentences behind: the
// tables were pinned, the sentences were not.
func TestReadmeProse(t *testing.T) {
	doc, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(string(doc)), " ")
	var want []string

	ali := regionRows(t, "alibaba")
	if g := cell(t, ali, "`default`/nodes, first fit", 9); g >= 0.003 {
		t.Errorf("the default list's GPUs held is %.4f; the README says under 0.3%%", g)
	}
	want = append(want, pct(cell(t, ali, "`default`/logged (the same 7255 pods)", 6))+" of the pods above 0")

	snap := regionRows(t, "alibaba-snapshot")
	want = append(want,
		"The pool starts every pod at once and allocates "+pct(cell(t, snap, "`default`/pooled", 6))+" of the GPUs",
		fmt.Sprintf("first fit allocates %s of the GPUs at once and %s of the pods wait, best fit (which packs cores, not GPUs) %s and %s, with a 95th-percentile wait of %.0f s",
			pct(cell(t, snap, "`gpuspec33`/nodes, first fit", 6)), pct(cell(t, snap, "`gpuspec33`/nodes, first fit", 9)),
			pct(cell(t, snap, "`gpuspec33`/nodes, best fit", 6)), pct(cell(t, snap, "`gpuspec33`/nodes, best fit", 9)),
			cell(t, snap, "`gpuspec33`/nodes, best fit", 8)))

	pol := regionRows(t, "alibaba-policies")
	ff, bf := "`default`/FCFS, first fit", "`default`/FCFS, best fit"
	eff, ebf := "`default`/EASY, first fit", "`default`/EASY, best fit"
	want = append(want,
		fmt.Sprintf("starts only %s of the GPUs at time 0 of `default` and %s of the pods wait (mean %s s)",
			pct(cell(t, pol, ff, 5)), pct(cell(t, pol, ff, 4)), readme.Thousands(int(cell(t, pol, ff, 2)))),
		fmt.Sprintf("FCFS then starts as much as EASY (%s of the GPUs, no wait)", pct(cell(t, pol, bf, 5))),
		fmt.Sprintf("(%.1f%% of the GPUs on `default`, a rate of %s of the free GPUs), though it leaves a little more free (%.1f%% against %.1f%%) than best fit (%.1f%%, a rate of %s)",
			100*cell(t, pol, eff, 6), pct(cell(t, pol, eff, 7)), 100*(1-cell(t, pol, eff, 5)), 100*(1-cell(t, pol, ebf, 5)),
			100*cell(t, pol, ebf, 6), pct(cell(t, pol, ebf, 7))))
	if pol[bf][2] != "0" || pol[bf][4] != "0.000" {
		t.Errorf("FCFS with best fit on default waits (%v); the README says no wait", pol[bf])
	}
	long := regionRows(t, "alibaba-policies-long")
	for _, k := range []string{"`gpuspec33`/FCFS, first fit", "`gpuspec33`/FCFS, best fit"} {
		want = append(want, "FCFS blocks under both placements ("+pct(cell(t, long, k, 4))+" of the pods wait)")
	}

	// The over-time table's rows are "policy, placement" then a row of the
	// fragmented shares under an empty first cell.
	over := regionRows(t, "alibaba-over-time")
	easyBest := "EASY, best fit/GPUs allocated"
	if g := cell(t, over, easyBest, 6); g >= 0.05 {
		t.Errorf("EASY, best fit holds %.3f of the GPUs at 6 h; the README says under 5%%", g)
	}
	var empty float64
	if _, err := fmt.Sscanf(strings.SplitAfter(readme.RegionOf(t, "README.md", "alibaba-over-time"), "the measure is ")[1], "%g", &empty); err != nil {
		t.Fatal(err)
	}
	want = append(want,
		fmt.Sprintf("allocation falls from %s to %s in 1 h", pct(cell(t, over, easyBest, 2)), pct(cell(t, over, easyBest, 5))),
		fmt.Sprintf("its value on the empty machine (%.1f%%)", 100*empty))

	lanl := regionRows(t, "lanl-memory")
	pool, ties := "pool of 1,024 processors (header MaxProcs)/–", "pool of 1,024 processors, every job ending at the shadow counted/-ties"
	mem := "1,024 nodes × 1 processor, 32 MiB/-count-memory"
	small := "hypothetical: 1,024 nodes × 1 processor, 16 MiB/-count-memory"
	rejected := cell(t, lanl, small, 3)
	want = append(want,
		"now with "+pct(cell(t, lanl, mem, 9))+" of the memory held",
		fmt.Sprintf("on 16 MiB nodes %s jobs (%s) ask more than a node has", readme.Thousands(int(rejected)), pct(rejected/(rejected+cell(t, lanl, small, 2)))),
		fmt.Sprintf("(mean wait %s s both), not as the plain pool (%s s)", readme.Thousands(int(cell(t, lanl, ties, 4))), readme.Thousands(int(cell(t, lanl, pool, 4)))))

	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("README.md should say %q (from its tables as printed)", w)
		}
	}
}

// TestReadmeTraceFacts checks what the README says of the logs themselves
// (LANL-CM5's memory fields, the line of each log's first job without an
// estimate that "Cost" gives) against the logs; they were counted by hand.
func TestReadmeTraceFacts(t *testing.T) {
	doc, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(string(doc)), " ")
	// first is the job line (1-based) of the first job without an
	// estimate (field 9 at or below 0: S6 fills it), 0 for none, and the
	// job lines; on LANL-CM5 also its memory fields.
	first := func(name string) (line, jobs, req, used int, maxReq float64) {
		f, err := swf.Open(tracetest.Path(t, name))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		for j, err := range f.All() {
			if err != nil {
				t.Fatal(err)
			}
			jobs++
			if j.ReqTime <= 0 && line == 0 {
				line = jobs
			}
			if j.ReqMemory > 0 {
				req++
			}
			if j.UsedMemory > 0 {
				used++
			}
			maxReq = max(maxReq, j.ReqMemory)
		}
		return line, jobs, req, used, maxReq
	}
	_, jobs, req, used, maxReq := first(tracetest.LANLCM5)
	var want []string
	want = append(want, fmt.Sprintf("The LANL CM-5 log (%s jobs) records memory per processor: field 10 (requested, in KB) for %s jobs, field 7 (used) for %s; the largest request is %s KB.",
		readme.Thousands(jobs), readme.Thousands(req), readme.Thousands(used), readme.Thousands(int(maxReq))))
	var lines []string
	for _, n := range []string{tracetest.SDSCSP2, tracetest.CTC, tracetest.LANLCM5, tracetest.LLNL} {
		l, _, _, _, _ := first(n)
		lines = append(lines, readme.Thousands(l))
	}
	want = append(want, fmt.Sprintf("SDSC-SP2, CTC-SP2, LANL-CM5 and LLNL-Atlas have their first at line %s, %s, %s and %s,", lines[0], lines[1], lines[2], lines[3]))
	l, jobs, _, _, _ := first(tracetest.CEACurie)
	want = append(want, fmt.Sprintf("CEA-Curie, at line %s of %s, holds", readme.Thousands(l), readme.Thousands(jobs)))
	for _, n := range []string{tracetest.KTH, tracetest.SDSCBlue} {
		if l, _, _, _, _ := first(n); l != 0 {
			t.Errorf("%s has a job without an estimate at line %d; the README says none", n, l)
		}
	}

	// The Alibaba GPU 2023 trace: the node list, the default pod list's
	// span of creation times and its logged waits (the pods that ran).
	kinds, pods := readAlibaba(t, "default")
	var nodes, gpus int64
	for _, k := range kinds {
		nodes += k.Count
		gpus += k.Count * k.GPUs
	}
	var waits []int64
	lo, hi := pods[0].Submit, pods[0].Submit
	for _, j := range pods {
		lo, hi = min(lo, j.Submit), max(hi, j.Submit)
		if j.RunTime >= 0 && j.Wait >= 0 {
			waits = append(waits, j.Wait)
		}
	}
	slices.Sort(waits)
	want = append(want,
		fmt.Sprintf("on the full node list (%s nodes, %s GPUs)", readme.Thousands(int(nodes)), readme.Thousands(int(gpus))),
		fmt.Sprintf("over the trace's %d days", (hi-lo)/86400),
		fmt.Sprintf("(a median of %d s,", waits[(len(waits)-1)/2]))
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("README.md should say %q (counted on the logs)", w)
		}
	}
}

package main

import (
	"strings"
	"testing"

	"github.com/batchq/batchq/internal/tracetest"
)

// runQuick runs the given tables on the first 6000 jobs of SDSC-SP2 in
// quick mode, through the same path as the command.
func runQuick(t *testing.T, tables string) string {
	t.Helper()
	return runQuickWith(t, tables, options{})
}

// runQuickWith is runQuick with o's other options (NoGrow, ...).
func runQuickWith(t *testing.T, tables string, o options) string {
	t.Helper()
	dir := tracetest.DirOf(t, tracetest.SDSCSP2)
	var b strings.Builder
	o.Dir, o.Only, o.Tables, o.MaxJobs, o.Quick = dir, "SP2", tables, 6000, true
	if err := reproduce(&b, o); err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + b.String())
	return b.String()
}

// TestTable6And7 checks that the exec-time tables run on a real log and
// print the paper's cells beside ours. The numbers themselves are the
// README's business: nothing here is tuned to the paper.
func TestTable6And7(t *testing.T) {
	out := runQuick(t, "VI,VII")
	for _, want := range []string{"## Table VI", "## Table VII", "| SDSC SP2 |", "(79)", "(81)", "(43)"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
}

// The splits keep the paper's proportions on short logs and never
// overlap the test jobs.
func TestRangeSplits(t *testing.T) {
	vf, vt, hf, tf, tt := rsSplits(100000, false)
	if vf != 14999 || vt != 19999 || hf != 4999 || tf != 20000 || tt != 100000 {
		t.Errorf("long log: %d %d %d %d %d", vf, vt, hf, tf, tt)
	}
	vf, vt, hf, tf, tt = rsSplits(6000, true)
	if !(hf < vf && vf < vt && vt <= tf && tf < tt && tt <= 6000) {
		t.Errorf("short log: %d %d %d %d %d", vf, vt, hf, tf, tt)
	}
}

// Smith's predictor falls back from the narrowest template to any
// template to the global mean; Li's averages its nearest neighbours.
func TestComparatorsHand(t *testing.T) {
	s := newSmith()
	a := job6(1, 10, 4, 100)
	b := job6(1, 10, 4, 110)
	if got := s.predict(&a); got != float64(a.ReqTime) {
		t.Errorf("empty Smith predicts %v, want the estimate %d", got, a.ReqTime)
	}
	s.add(&a)
	s.add(&b)
	// Both jobs share every template: the mean of their runtimes.
	if got := s.predict(&a); got != float64(a.RunTime+b.RunTime)/2 {
		t.Errorf("Smith = %v", got)
	}
	jobs := []swfJob{a, b}
	l := newLi(jobs)
	l.add(0)
	l.add(1)
	if got := l.predict(&a); got != float64(a.RunTime+b.RunTime)/2 {
		t.Errorf("Li = %v (equal distances: the plain mean)", got)
	}
}

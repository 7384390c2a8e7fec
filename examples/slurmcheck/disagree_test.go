package main

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/readme"
)

// outOfOrder is where the competing pairs a schedule puts out of Slurm's
// order lie (score's pairs, a tie counting one half): by how far apart
// Slurm started the pair's two jobs, and how many of them have a job the
// schedule starts more than bf_interval from Slurm's start (a schedule
// that has already parted from Slurm's there).
type outOfOrder struct {
	pairs          int
	out            float64 // pairs out of Slurm's order
	near, mid, far float64 // of out: Slurm's starts ≤ 2 s, 3 s–bf_interval, more apart
	parted         float64 // of out: a job started more than bf_interval from Slurm's
	bfInterval     int64
}

func pairsOutOfOrder(c *checked, starts []int64, bfInterval int64) outOfOrder {
	o := outOfOrder{bfInterval: bfInterval}
	o.pairs = eachOutOfOrder(c, starts, func(a, b int, w float64) {
		o.out += w
		switch gap := c.real[b].Start - c.real[a].Start; {
		case gap <= 2:
			o.near += w
		case gap <= bfInterval:
			o.mid += w
		default:
			o.far += w
		}
		if abs(starts[a]-c.real[a].Start) > bfInterval || abs(starts[b]-c.real[b].Start) > bfInterval {
			o.parted += w
		}
	})
	return o
}

// eachOutOfOrder calls f for each competing pair (score's: both jobs
// submitted before either started, Slurm's starts apart) that starts
// puts out of Slurm's order, a the job Slurm started first, w 1 or one
// half for a tie; it returns the number of competing pairs.
func eachOutOfOrder(c *checked, starts []int64, f func(a, b int, w float64)) (pairs int) {
	n := len(c.real)
	for i := range n {
		for j := i + 1; j < n; j++ {
			ri, rj := c.real[i], c.real[j]
			if ri.Start == rj.Start || max(ri.Submit, rj.Submit) >= min(ri.Start, rj.Start) {
				continue
			}
			pairs++
			a, b := i, j
			if rj.Start < ri.Start {
				a, b = j, i
			}
			switch {
			case starts[a] == starts[b]:
				f(a, b, 0.5)
			case starts[a] > starts[b]:
				f(a, b, 1)
			}
		}
	}
	return pairs
}

// local is the share of the competing pairs out of order whose jobs
// both start within bf_interval of Slurm's: where a tick's phase or a
// rule deciding the same moment otherwise shows without a cascade.
func (o outOfOrder) local() float64 { return (o.out - o.parted) / float64(max(o.pairs, 1)) }

// cells writes o's shares as the table's cells.
func (o outOfOrder) cells() string {
	pct := func(v float64) string { return fmt.Sprintf("%.0f%%", 100*v/max(o.out, 1)) }
	return fmt.Sprintf("%.1f%% | %s | %s | %s | %s | %.1f%%", 100*o.out/float64(max(o.pairs, 1)), pct(o.near), pct(o.mid), pct(o.far), pct(o.parted), 100*o.local())
}

// TestDisagreements generates the README's region disagree: on each of
// the four live recordings, where the competing pairs the policy puts out
// of Slurm's order lie, beside the same for each other run of Slurm
// scored against that recording (README.md, "What the gaps come from").
// On every recording nine in ten or more of the policy's pairs out of
// order have a job it starts more than bf_interval from Slurm's start: the
// schedules have parted there (by chaos or by a rule that moved a job
// far: the pairs cannot tell), as another run of Slurm's has; the others
// are under 1% of the competing pairs.
func TestDisagreements(t *testing.T) {
	var cs []*checked
	for _, path := range livePaths {
		_, c := readPrepared(t, path)
		cs = append(cs, c)
	}
	var b strings.Builder
	b.WriteString("| run | against | competing pairs | out of Slurm's order | of these: Slurm's starts ≤ 2 s apart | 3 s – bf_interval | farther | with a job started more than bf_interval from Slurm's | the others, of all competing pairs |\n")
	b.WriteString("|---|---|---:|---:|---:|---:|---:|---:|---:|\n")
	for k, c := range cs {
		bfInt := int64(bfInterval)
		s, err := runSlurm(context.Background(), c)
		if err != nil {
			t.Fatal(err)
		}
		o := pairsOutOfOrder(c, s.starts, bfInt)
		if o.parted < 0.9*o.out || o.local() >= 0.01 {
			t.Errorf("%s: %.1f of the policy's %.1f pairs out of order have a job it starts more than bf_interval from Slurm's, the others %.2f%% of the competing pairs; want nine in ten or more, under 1%%", livePaths[k], o.parted, o.out, 100*o.local())
		}
		fmt.Fprintf(&b, "| %d (%s) | %s | %d | %s |\n", k+1, livePaths[k], slurmName, o.pairs, o.cells())
		for j, other := range cs {
			if j == k {
				continue
			}
			o := pairsOutOfOrder(c, otherRun("", c, other, 0).starts, bfInt)
			fmt.Fprintf(&b, "| | Slurm, run %d | %d | %s |\n", j+1, o.pairs, o.cells())
		}
	}
	readme.Check(t, "README.md", "disagree", []byte(b.String()))
}

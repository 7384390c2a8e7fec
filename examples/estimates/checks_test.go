package main

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/batchq/batchq/estmodel"
)

// The modal model's own published numbers (thesis Ch. 5: Tab 5.3, Fig 5.6,
// §5.9, §5.10.2), computed through estmodel.Generate beside the thesis's.

// kChecks are the sane job counts of Tab 5.1 with the K (linear model) and
// time-curve a (reference parameters) the thesis's rule gives for them.
var kChecks = []struct {
	name string
	n, k int
	a    float64
}{
	{"CTC", 77222, 349, 1.355}, {"SDSC", 54053, 274, 1.411}, {"SDSC-106", 53673, 272, 1.413},
	{"KTH", 28490, 167, 1.554}, {"KTH4H", 23070, 144, 1.606}, {"BLUE", 223407, 532, 1.276},
}

// headChecks are the head times for some E_max (§5.10.2; E_max first).
var headChecks = []struct {
	eMax int64
	want string
}{
	{18 * 3600, "5m 10m 15m 20m 30m 1h 2h 3h 4h 5h 6h 8h 10h 12h 13h 14h 15h 16h 17h 18h"},
	{4 * 3600, "5m 10m 15m 20m 30m 40m 1h 1:20 1:40 2h 2:20 2:40 2:50 3h 3:10 3:20 3:30 3:40 3:50 4h"},
	{2 * 3600, "5m 10m 15m 20m 30m 40m 50m 1h 1:05 1:10 1:15 1:20 1:25 1:30 1:35 1:40 1:45 1:50 1:55 2h"},
	{36 * 3600, "5m 10m 15m 20m 30m 1h 2h 3h 4h 5h 6h 8h 10h 12h 18h 20h 25h 30h 35h 36h"},
	{60 * 3600, "5m 10m 15m 20m 30m 1h 2h 3h 4h 5h 6h 8h 10h 12h 18h 20h 30h 40h 50h 60h"},
}

// thesisHeadSizes are p_1..p_20 with the thesis's parameters (§5.9).
var thesisHeadSizes = []float64{22.70, 10.262, 8.648, 7.299, 6.172, 5.231, 4.445, 3.789, 3.240, 2.782, 2.400, 2.080,
	1.813, 1.590, 1.404, 1.249, 1.119, 1.010, 0.920, 0.844}

func generate(cfg estmodel.ModalConfig) (*estmodel.Distribution, error) {
	return estmodel.Generate(cfg, rand.New(rand.NewPCG(1, 2)))
}

// headSizes returns the head bins' percentages, E_max's first, then the
// others from the largest down.
func headSizes(d *estmodel.Distribution, eMax int64) []float64 {
	var first float64
	var rest []float64
	for _, b := range d.Bins {
		switch {
		case b.Time == eMax:
			first = b.Percent
		case b.Head:
			rest = append(rest, b.Percent)
		}
	}
	slices.Sort(rest)
	slices.Reverse(rest)
	return append([]float64{first}, rest...)
}

func minutes(t int64) string {
	switch {
	case t%3600 == 0:
		return fmt.Sprintf("%dh", t/3600)
	case t < 3600:
		return fmt.Sprintf("%dm", t/60)
	}
	return fmt.Sprintf("%d:%02d", t/3600, t%3600/60)
}

// writeModelChecks prints the model's numbers beside the thesis's.
func writeModelChecks(w io.Writer) error {
	fmt.Fprintln(w, "| check (thesis) | thesis | ours |")
	fmt.Fprintln(w, "|---|---|---|")
	var names, ns, wantK, gotK, wantA, gotA []string
	for _, c := range kChecks {
		d, err := generate(estmodel.ModalConfig{N: c.n, EMax: 18 * 3600})
		if err != nil {
			return err
		}
		names, ns = append(names, c.name), append(ns, fmt.Sprint(c.n))
		wantK, gotK = append(wantK, fmt.Sprint(c.k)), append(gotK, fmt.Sprint(d.K))
		wantA, gotA = append(wantA, fmt.Sprintf("%.3f", c.a)), append(gotA, fmt.Sprintf("%.3f", d.A))
	}
	fmt.Fprintf(w, "| K for N = %s (%s), linear model (Tab 5.3) | %s | %s |\n", strings.Join(ns, " / "), strings.Join(names, " / "), strings.Join(wantK, " / "), strings.Join(gotK, " / "))
	fmt.Fprintf(w, "| time curve a for those K, reference parameters (Fig 5.6) | %s | %s |\n", strings.Join(wantA, " "), strings.Join(gotA, " "))
	for _, h := range headChecks {
		d, err := generate(estmodel.ModalConfig{N: 10000, EMax: h.eMax})
		if err != nil {
			return err
		}
		ts := slices.Sorted(slices.Values(d.HeadTimes))
		got := make([]string, len(ts))
		for i, t := range ts {
			got[i] = minutes(t)
		}
		fmt.Fprintf(w, "| head times for E_max = %s (§5.10.2) | %s | %s |\n", minutes(h.eMax), h.want, strings.Join(got, " "))
	}
	d, err := generate(estmodel.ModalConfig{N: 10000, EMax: 3600})
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "| number of head times for E_max = 1 h (S25) | 12 | %d |\n", len(d.HeadTimes))
	if d, err = generate(estmodel.ModalConfig{N: 100000, EMax: 18 * 3600, ThesisParams: true}); err != nil {
		return err
	}
	got := headSizes(d, 18*3600)
	dev := 0.0
	for j := 1; j < len(thesisHeadSizes) && j < len(got); j++ {
		dev = max(dev, math.Abs(got[j]-thesisHeadSizes[j]))
	}
	fmt.Fprintf(w, "| head size p_1, thesis parameters (§5.9) | %.2f%% (p_2..p_20 = %.3f … %.3f) | %.2f%% (p_2..p_20 = %.3f … %.3f, all within %.4f) |\n",
		thesisHeadSizes[0], thesisHeadSizes[1], thesisHeadSizes[19], got[0], got[1], got[len(got)-1], dev)
	if d, err = generate(estmodel.ModalConfig{N: 100000, EMax: 18 * 3600}); err != nil {
		return err
	}
	got = headSizes(d, 18*3600)
	fmt.Fprintf(w, "| head size p_1, reference parameters (the default) | 21.73%% (p_2 = 10.313, p_20 = 0.866) | %.2f%% (p_2 = %.3f, p_20 = %.3f) |\n", got[0], got[1], got[len(got)-1])
	return nil
}

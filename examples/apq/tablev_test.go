package main

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/readme"
	"github.com/batchq/batchq/qbets/ibl"
)

// vRow is one log's row of Table V's main table (region v-1): AAE in
// hours, scaled AAE unitless, ours only (not the paper's in brackets).
type vRow struct {
	log                    string
	meanWait               float64
	naive, qbets, ibl, apq [2]float64 // scaled AAE, AAE
}

// parseV1 reads the rows of Table V's main table.
func parseV1(region []byte) ([]vRow, error) {
	lines := strings.Split(strings.TrimSpace(string(region)), "\n")
	want := "| log | test jobs | mean wait (h) | naive scaled | naive AAE | QBETS scaled | QBETS AAE | IBL scaled | IBL AAE | APQ scaled | APQ AAE |"
	if len(lines) < 3 || !strings.HasPrefix(lines[0], want) {
		return nil, fmt.Errorf("v-1: not the table of %q", want)
	}
	// ours is a cell's first number (a paper's figure follows in brackets).
	ours := regexp.MustCompile(`^[0-9]+(\.[0-9]+)?`)
	var rows []vRow
	for _, l := range lines[2:] {
		cells := strings.Split(strings.Trim(l, "| "), " | ")
		if len(cells) != 13 {
			return nil, fmt.Errorf("v-1: %d cells in %q", len(cells), l)
		}
		var v [8]float64
		for k := range v {
			s := ours.FindString(cells[3+k])
			f, err := strconv.ParseFloat(s, 64)
			if err != nil {
				return nil, fmt.Errorf("v-1: cell %q: %v", cells[3+k], err)
			}
			v[k] = f
		}
		m, err := strconv.ParseFloat(cells[2], 64)
		if err != nil {
			return nil, fmt.Errorf("v-1: mean wait %q: %v", cells[2], err)
		}
		rows = append(rows, vRow{log: cells[0], meanWait: m,
			naive: [2]float64{v[0], v[1]}, qbets: [2]float64{v[2], v[3]}, ibl: [2]float64{v[4], v[5]}, apq: [2]float64{v[6], v[7]}})
	}
	return rows, nil
}

// tableVClaims returns the README's claims about the naive baseline in
// Table V (the paragraph under it) that the table no longer shows.
func tableVClaims(region []byte) ([]string, error) {
	rows, err := parseV1(region)
	if err != nil {
		return nil, err
	}
	if len(rows) != 4 {
		return nil, fmt.Errorf("v-1: %d rows, want the four logs", len(rows))
	}
	by := map[string]vRow{}
	for _, r := range rows {
		by[r.log] = r
	}
	curie, blue, par, sp2 := by["CEA Curie"], by["SDSC Blue"], by["SDSC Paragon"], by["SDSC SP2"]
	const AAE, scaled = 1, 0
	below := func(r vRow) bool { return r.ibl[AAE] < r.naive[AAE] && r.apq[AAE] < r.naive[AAE] }
	// widest is the largest share of the naive AAE by which IBL or APQ
	// is below it, and the log and predictor of that margin.
	widest, where := 0.0, ""
	lowestScaled := func(r vRow) string {
		name, v := "naive", r.naive[scaled]
		for _, p := range []struct {
			name string
			v    float64
		}{{"QBETS", r.qbets[scaled]}, {"IBL", r.ibl[scaled]}, {"APQ", r.apq[scaled]}} {
			if p.v < v {
				name, v = p.name, p.v
			}
		}
		return name
	}
	qbetsFar, iblScaledAbove := true, true
	for _, r := range rows {
		for _, p := range []struct {
			name string
			v    float64
		}{{"IBL", r.ibl[AAE]}, {"APQ", r.apq[AAE]}} {
			if m := (r.naive[AAE] - p.v) / r.naive[AAE]; m > widest {
				widest, where = m, p.name+" "+r.log
			}
		}
		qbetsFar = qbetsFar && r.qbets[AAE] > 2*r.naive[AAE]
		iblScaledAbove = iblScaledAbove && r.ibl[scaled] > r.naive[scaled]
	}
	return claims([]claim{
		{"IBL and APQ below the naive baseline on AAE on Curie, Blue and SP2", below(curie) && below(blue) && below(sp2)},
		{"both above it on Paragon", par.ibl[AAE] > par.naive[AAE] && par.apq[AAE] > par.naive[AAE]},
		{"by less than 12%, IBL's margin on Blue the widest", widest < 0.12 && where == "IBL SDSC Blue"},
		{"QBETS's AAE more than twice the naive's on every log", qbetsFar},
		{"naive the lowest scaled AAE on Curie, Paragon and SP2, APQ on Blue", lowestScaled(curie) == "naive" && lowestScaled(par) == "naive" && lowestScaled(sp2) == "naive" && lowestScaled(blue) == "APQ"},
		{"default IBL's scaled AAE above the naive's on every log", iblScaledAbove},
		{"on Curie naive, IBL and APQ above the mean wait", curie.naive[AAE] > curie.meanWait && curie.ibl[AAE] > curie.meanWait && curie.apq[AAE] > curie.meanWait},
		{"on Paragon IBL and APQ above the mean wait, naive below it", par.ibl[AAE] > par.meanWait && par.apq[AAE] > par.meanWait && par.naive[AAE] < par.meanWait},
	}), nil
}

// TestTableVClaims checks the README's sentences on the naive baseline of
// Table V against the table as committed (no trace: the table is pinned
// by TestReadmeTables' digest), and that a changed cell fails its claim.
func TestTableVClaims(t *testing.T) {
	region := []byte(readme.RegionOf(t, "README.md", "v-1"))
	wrong, err := tableVClaims(region)
	if err != nil || len(wrong) > 0 {
		t.Fatalf("README as committed: %v, %q", err, wrong)
	}
	// The sentences tableVClaims checks, word for word (a sentence
	// edited without the claims fails here).
	text, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	flat := strings.Join(strings.Fields(string(text)), " ")
	for _, s := range []string{
		"on AAE, IBL and APQ are below it on Curie, Blue and SP2, by less than 12% (the widest margin is IBL's on Blue), and both are above it on Paragon, where the baseline has the lowest AAE and the lowest scaled AAE of all.",
		"QBETS, a 0.95-quantile bound used as a point, has more than twice the baseline's AAE on every log.",
		fmt.Sprintf("On scaled AAE the baseline is the lowest on Curie, Paragon and SP2, APQ on Blue; the default IBL (%d neighbours) is above the baseline on every log.", ibl.DefaultN),
		"On Curie the baseline, IBL and APQ all have an AAE above the test jobs' mean wait, the AAE of answering 0 for every job; on Paragon IBL and APQ do, the baseline does not.",
	} {
		if !strings.Contains(flat, s) {
			t.Errorf("README.md lacks the sentence %q", s)
		}
	}
	// The naive AAE on Paragon raised to 3.50 h, above IBL's, APQ's and
	// the mean wait: the two claims of Paragon fail, the others hold.
	cell := regexp.MustCompile(`(\| SDSC Paragon \| [0-9]+ \| [0-9.]+ \| [0-9.]+ \| )[0-9.]+ \|`)
	if !cell.Match(region) {
		t.Fatalf("v-1's Paragon row changed: %s", region)
	}
	bad := cell.ReplaceAll(region, []byte("${1}3.50 |"))
	want := []string{"both above it on Paragon", "on Paragon IBL and APQ above the mean wait, naive below it"}
	if wrong, err := tableVClaims(bad); err != nil || !slices.Equal(wrong, want) {
		t.Errorf("naive AAE 3.50 h on Paragon: %v, %q; want %q", err, wrong, want)
	}
}

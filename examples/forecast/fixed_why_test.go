package main

import (
	"bytes"
	"fmt"
	"maps"
	"math"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/readme"
	"github.com/batchq/batchq/qbets/apq"
	"github.com/batchq/batchq/qbets/replay"
)

// fixedWhyDigest pins the README's fixed-why region (CTC-SP2 with APQ
// twice: 4.2 min of CPU under load). Regenerate with
//
//	BATCHQ_LONG=1 BATCHQ_UPDATE_README=1 go test ./examples/forecast -run TestReadmeFixedWhy -timeout 1h
const fixedWhyDigest = "2892f1f7e0e96b4ee3bb9e1bdcb5fc6bced216ecb0c4e04b3052e4a72dfa17ff"

// TestReadmeFixedWhy is the measurement behind the README's account of
// why APQ's LogWait loses to the paper's APQ on CTC-SP2: the errors of
// both (diagnose) and the share of their answers by the case and model
// that gave them, through the diagnosis's replay.
func TestReadmeFixedWhy(t *testing.T) {
	readme.CheckLong(t, "README.md", map[string]string{"fixed-why": fixedWhyDigest}, func() map[string][]byte {
		vs := []variant{naiveRow, apqRow("apq (paper defaults)", apq.Config{}), apqRow("apq, LogWait", apq.Config{LogWait: true})}
		log, sc, preds := replayVariants(t, "CTC-SP2-1996-3.1-cln.swf.gz", vs)
		var b bytes.Buffer
		fmt.Fprintf(&b, "%s, at each submission after the first 10%%:\n\n", log)
		b.WriteString("| predictor | case / model | answers % | within ×2 % | mean \\|log10\\| | median log10(predicted / real) | over ×2 % | under ×2 % |\n")
		b.WriteString("|---|---|---:|---:|---:|---:|---:|---:|\n")
		for i, v := range vs {
			by := map[string][]replay.Outcome{"all": sc[i].Answers}
			if a, ok := preds[i].(*apqByCase); ok {
				if len(a.tags) != len(sc[i].Answers) {
					t.Fatalf("%s: %d tags for %d answers", v.name, len(a.tags), len(sc[i].Answers))
				}
				for k, o := range sc[i].Answers {
					by[a.tags[k]] = append(by[a.tags[k]], o)
				}
			}
			for _, tag := range slices.Sorted(maps.Keys(by)) {
				d := diagnose(by[tag])
				fmt.Fprintf(&b, "| %s | %s | %.1f | %.1f | %.3f | %+.2f | %.1f | %.1f |\n", v.name, tag,
					100*float64(len(by[tag]))/float64(len(sc[i].Answers)), 100*d.within2, d.meanLog, d.medianLog, 100*d.over, 100*d.under)
			}
		}
		return map[string][]byte{"fixed-why": b.Bytes()}
	})
}

// TestReadmeFixedWhyProse: the figures of the prose under the fixed-why
// region are the region's (cheap: no replay).
func TestReadmeFixedWhyProse(t *testing.T) {
	doc, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	prose := regexp.MustCompile(`\s+`).ReplaceAllString(string(doc), " ")
	rows := map[string][]string{} // "predictor / case" → cells
	for l := range strings.Lines(readme.RegionOf(t, "README.md", "fixed-why")) {
		if c := strings.Split(strings.Trim(strings.TrimSpace(l), "|"), "|"); len(c) == 8 {
			for i := range c {
				c[i] = strings.TrimSpace(c[i])
			}
			rows[c[0]+" / "+c[1]] = c
		}
	}
	row := func(name string) []string {
		t.Helper()
		r, ok := rows[name]
		if !ok {
			t.Fatalf("fixed-why region: no row %q", name)
		}
		return r
	}
	def, lw := row("apq (paper defaults) / all"), row("apq, LogWait / all")
	defSDM, lwSDM := row("apq (paper defaults) / B / SDM"), row("apq, LogWait / B / SDM")
	for _, want := range []string{
		fmt.Sprintf("Every answer of both comes from Case B and sdm (%s%% and %s%%)", defSDM[2], lwSDM[2]),
		fmt.Sprintf("a median %.0f times the real wait (%s in log10) against %.1f times (%s) without, and %s%% of the jobs are over-predicted by more than ×2 against %s%%",
			math.Pow(10, cell(lw[5])), lw[5], math.Pow(10, cell(def[5])), def[5], lw[6], def[6]),
	} {
		if !strings.Contains(prose, want) {
			t.Errorf("README prose on fixed-why lacks, from the region: %s", want)
		}
	}
}

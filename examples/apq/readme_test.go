package main

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/readme"
	"github.com/batchq/batchq/internal/tracetest"
)

// paperDir returns the traces' directory, skipping (or failing in CI)
// unless the paper's four logs are there.
func paperDir(t *testing.T) string {
	t.Helper()
	var dir string
	for _, pt := range paperTraces {
		dir = filepath.Dir(tracetest.Path(t, pt.File))
	}
	return dir
}

// TestReadmeKept checks the README's job counts (reads the four logs, a
// few seconds).
func TestReadmeKept(t *testing.T) {
	if testing.Short() {
		t.Skip("reads four whole logs")
	}
	text, err := keptText(paperDir(t))
	if err != nil {
		t.Fatal(err)
	}
	readme.Check(t, "README.md", "kept", text)
}

// The README's tables of Tables V–IX, by the SHA-256 of their text (the
// command's -tables V, VI,VII and VIII,IX on the four logs, about 80
// minutes). Regenerate them and print the new digests with
//
//	BATCHQ_LONG=1 BATCHQ_UPDATE_README=1 go test ./examples/apq -run TestReadmeTables -timeout 3h
var tablesDigests = map[string]string{
	"v-1":    "256663bc4c742b4cff0397937297575db1ad82346c86157f92aea571741de93c",
	"v-2":    "5ef2681da2312da7e93e4dda7e61fb50f50e13266474d633eaa7615e00ffc3e6",
	"v-3":    "416e83d86a4e620385b65811faa650c5f393814e9c0be6f9591c0b5628594593",
	"v-4":    "380f41b98e9c3a8509bdf480809f89a42a9a680734ee9cffb88409a51225a93e",
	"vi-1":   "c7a1a3e3983ac567edb6f0a5f3896818ad8eb86bb9daf0323c876569cbfe3eaa",
	"vi-2":   "567b636f849be7dc25275b36a9fe9f6b83c7a0bb4a85b124b425fab9cb6f68ed",
	"vi-3":   "7119167bbcd04ccfbec552af7b27a23ef4085a1e18c877493978a3c4d4e86672",
	"vi-4":   "8f05c94d02f208fd92081824eeee6e7c6bfdbc99c1a96b98862f85b6672bcbaf",
	"viii-1": "7b2d97648fb9f12d22b67d58911e2f3abc60d7a550fcb94922fc92a563ecb298",
	"viii-2": "349edf4f041c8728c98443e1a25ea0eabd10464288a8bbd0cfed50500c7b2f44",
	"viii-3": "cd6c36f2f9d29ece583a59883e6e86d74e1f1f60ea25e99bb82fa86306b6d4a0",
	"viii-4": "d7d4a183fca145a7ad64bae9be685731c3406bd8e85fb9cfc0451d2cafd3a830",
	"viii-5": "ccfe4ef1bdabd9854d0ede84a04ccc561ef54401b2880887f5f7933992468460",
	"viii-6": "c27ec0cc99b13313b95d5bf0526f0b9cc3dd00b32869d1a3cc192f91d6708d52",
	"viii-7": "75bb12a9e09e6e1421a7f452c72a2aea2c66747f2bea5080fb9d4378569a1238",
	"viii-8": "81b589b1303a9d4bc684a7c640f5256cedf8c0dd4c7ccb173cd2cbadacc06ccd",
}

func TestReadmeTables(t *testing.T) { checkRuns(t, tablesDigests, readmeRuns) }

// checkRuns pins the regions of runs by digests (readme.CheckLong), one
// subtest per run, so that `-run 'TestX/^name$'` regenerates one run.
func checkRuns(t *testing.T, digests map[string]string, runs []readmeRun) {
	t.Helper()
	for _, r := range runs {
		t.Run(r.name, func(t *testing.T) {
			d := runDigests(digests, r.name)
			if len(d) == 0 && !readme.Long() {
				t.Skipf("run %s is not generated yet (its README section says so); generate it with %s=1 %s=1", r.name, readme.LongEnv, readme.UpdateEnv)
			}
			readme.CheckLong(t, "README.md", d, func() map[string][]byte {
				out, err := readmeRegions(paperDir(t), []readmeRun{r})
				if err != nil {
					t.Fatal(err)
				}
				return out
			})
		})
	}
}

// runDigests are the digests of run name's regions, name-k.
func runDigests(digests map[string]string, name string) map[string]string {
	out := map[string]string{}
	for region, d := range digests {
		k, ok := strings.CutPrefix(region, name+"-")
		if _, err := strconv.Atoi(k); ok && err == nil {
			out[region] = d
		}
	}
	return out
}

// The sections below Tables V–IX, one test each (the README names each
// test's command and how long it took). Regenerate one with
//
//	BATCHQ_LONG=1 BATCHQ_UPDATE_README=1 go test ./examples/apq -run 'TestReadmeNoGrow$' -timeout 4h

// -nogrow (noGrowRuns).
var noGrowDigests = map[string]string{
	"nogrow-1": "764fd781654875074407d3b41fe621ae219fbe393eae8aeb7ebfc58be38a9320",
	"nogrow-4": "a2f83e3f89e4858a84c74f1f83a98232853e2eb6c8b4a84e84f433e0ef5cd485",
}

func TestReadmeNoGrow(t *testing.T) { checkRuns(t, noGrowDigests, noGrowRuns) }

// -floor running -flooronly (floorRuns).
var floorDigests = map[string]string{
	"floor-1": "898b68d04036bbbac210ce8388a38253f51ebc9159259b92efce0f92fb49393e",
	"floor-2": "dcb81bed7268d8476d0d349c55eff4d43077dbe7538142b5098a4540f0df0731",
	"floor-3": "01bd16f082d80e3eb81e149eae6ca3fdc28dfcabfa405ee283700bf612798c87",
	"floor-4": "61bf2de5ac024ed4757388a612b610495dbbf3632e1320cf21d0057552d774ea",
	"floor-5": "84318fcec08d2722806412514029bfe178b310975d7ff81c21ad397465ffe43d",
	"floor-6": "ae99945f432828bccc42340597cab1603073d174cb7524796a7500a0fdaf7593",
}

func TestReadmeFloor(t *testing.T) { checkRuns(t, floorDigests, floorRuns) }

// TestReadmeTune regenerates the README's -tune tables (tuneRuns: about
// 45 s of CPU, so not under -short) and compares them with the README's
// text; BATCHQ_UPDATE_README=1 rewrites them.
func TestReadmeTune(t *testing.T) {
	if testing.Short() {
		t.Skip("-tables V -tune -quick on SDSC Paragon: about 45 s of CPU")
	}
	dir := filepath.Dir(tracetest.Path(t, tracetest.SDSCPar))
	out, err := readmeRegions(dir, tuneRuns)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range tuneRegions {
		readme.Check(t, "README.md", name, out[name])
	}
	// The text's counts of the fifth table, left out of the README.
	doc, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	n := regexp.MustCompile(`\(n=([0-9]+)\) \|`).FindAllStringSubmatch(string(out["tune-5"]), -1)
	if got := fmt.Sprint(n); len(n) != 5 || n[2][1] != "14" || n[3][1] != "35" || n[4][1] != "1" ||
		!strings.Contains(strings.Join(strings.Fields(string(doc)), " "), "its classes above 1,000 s hold 14, 35 and 1 of them") {
		t.Errorf("README.md says the classes above 1,000 s hold 14, 35 and 1 of the test jobs; the fifth -tune table's counts: %s", got)
	}
	wrong, err := tuneClaims(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range wrong {
		t.Errorf("README.md says %s; the -tune tables no longer show it", c)
	}
}

// tuneRegions are the README's regions of tuneRuns.
var tuneRegions = []string{"tune-1", "tune-2", "tune-3", "tune-4"}

// TestTuneClaims checks the README's tuning claims against the tables as
// committed (fast, no trace; the tables are pinned by TestReadmeTune and
// TestReadmeTuneSP2's digests) and that the check notices a changed cell.
func TestTuneClaims(t *testing.T) {
	tables := map[string][]byte{}
	for _, name := range append(tuneRegions, "tunesp2-1", "tunesp2-3", "tunesp2-4") {
		tables[name] = []byte(readme.RegionOf(t, "README.md", name))
	}
	wrong, err := tuneClaims(tables)
	if err != nil || len(wrong) > 0 {
		t.Fatalf("Paragon, README as committed: %v, %q", err, wrong)
	}
	f, err := parseTune(tables, "tunesp2", "SDSC SP2")
	if err != nil {
		t.Fatal(err)
	}
	if wrong := claims(tuneSP2Claims(f)); len(wrong) > 0 {
		t.Errorf("README.md says %q of SDSC SP2; the tunesp2 tables no longer show it", wrong)
	}
	// The naive baseline's AAE above APQ's: that claim fails alone.
	bad := maps.Clone(tables)
	naive := regexp.MustCompile(`\| ([0-9.]+) \| ([0-9.]+) → ([0-9.]+) \| ([0-9.]+) \|\n$`)
	if !naive.Match(bad["tune-3"]) {
		t.Fatalf("tune-3's last cells changed: %s", bad["tune-3"])
	}
	bad["tune-3"] = naive.ReplaceAll(bad["tune-3"], []byte("| 9.99 | $2 → $3 | $4 |\n"))
	if wrong, err := tuneClaims(bad); err != nil || !slices.Equal(wrong, []string{"naive below APQ on AAE, tuned or not"}) {
		t.Errorf("naive AAE 9.99 h: %v, %q; want its claim only", err, wrong)
	}
	bad = maps.Clone(tables)
	bad["tune-1"] = bad["tune-1"][:len(bad["tune-1"])/2]
	if _, err := tuneClaims(bad); err == nil {
		t.Error("a cut table parsed")
	}
}

// tuneFigures are the numbers of a -tune run's tables 1, 3 and 4 (one
// log), AAE in hours.
type tuneFigures struct {
	jobs, meanWait     float64     // table 1: test jobs, their mean wait
	val, test          []float64   // APQ default, tuned (test: and the paper's)
	scaled             []float64   // APQ default, tuned
	naive, naiveScaled float64     // the naive baseline
	ibl                [][]float64 // by iblNeighbours: AAE, scaled
}

// parseTune reads the figures of log from regions run-1, run-3, run-4 of
// tables, each a table of one row.
func parseTune(tables map[string][]byte, run, log string) (tuneFigures, error) {
	num := regexp.MustCompile(`[0-9]+(\.[0-9]+)?`)
	row := make(map[int][][]float64) // table -> cells -> numbers
	for _, k := range []int{1, 3, 4} {
		name := fmt.Sprintf("%s-%d", run, k)
		lines := strings.Split(strings.TrimSpace(string(tables[name])), "\n")
		if len(lines) != 3 || !strings.HasPrefix(lines[2], "| "+log) || !strings.HasSuffix(lines[2], " |") {
			return tuneFigures{}, fmt.Errorf("%s: want one row of %s, got\n%s", name, log, tables[name])
		}
		head := strings.Split(strings.Trim(lines[0], "| "), " | ")
		cells := strings.Split(strings.Trim(lines[2], "| "), " | ")
		if len(cells) != len(head) {
			return tuneFigures{}, fmt.Errorf("%s: %d cells under %d columns", name, len(cells), len(head))
		}
		for _, c := range cells {
			var v []float64
			for _, s := range num.FindAllString(c, -1) {
				f, err := strconv.ParseFloat(s, 64)
				if err != nil {
					return tuneFigures{}, err
				}
				v = append(v, f)
			}
			row[k] = append(row[k], v)
		}
	}
	// cell returns the numbers of column col of table k's row, wanting n.
	var bad error
	cell := func(k, col, n int) []float64 {
		v := row[k]
		if col >= len(v) || len(v[col]) != n {
			bad = fmt.Errorf("%s-%d: column %d is not %d numbers", run, k, col, n)
			return make([]float64, n)
		}
		return v[col]
	}
	f := tuneFigures{jobs: cell(1, 1, 1)[0], meanWait: cell(1, 2, 1)[0],
		val: cell(3, 11, 2), test: cell(3, 12, 3), naive: cell(3, 13, 1)[0],
		scaled: cell(3, 14, 2), naiveScaled: cell(3, 15, 1)[0]}
	for k := range iblNeighbours {
		f.ibl = append(f.ibl, cell(4, 1+k, 2))
	}
	return f, bad
}

// claim is one sentence of the README and whether the tables show it.
type claim struct {
	text string
	ok   bool
}

// claims returns the texts of the claims that do not hold.
func claims(cs []claim) []string {
	var wrong []string
	for _, c := range cs {
		if !c.ok {
			wrong = append(wrong, c.text)
		}
	}
	return wrong
}

// tuneClaims returns the claims of the README about the Paragon -tune
// tables (the regions tuneRegions) that they no longer show: those of the
// paragraph under them and of the status table's row "APQ's AAE below
// IBL's".
func tuneClaims(tables map[string][]byte) ([]string, error) {
	f, err := parseTune(tables, "tune", "SDSC Paragon")
	if err != nil {
		return nil, err
	}
	tuned, ibl := f.test[1], f.ibl
	return claims([]claim{
		{"500 test jobs, #20001–20500", f.jobs == 500 && strings.Contains(string(tables["tune-2"]), "| SDSC Paragon | #20001–20500 |")},
		{"the search lowers the validation AAE", f.val[1] < f.val[0]},
		{"the search lowers the test AAE", tuned < f.test[0]},
		{"the search lowers the scaled AAE", f.scaled[1] < f.scaled[0]},
		{"naive below APQ on AAE, tuned or not", f.naive < f.test[0] && f.naive < tuned},
		{"naive below APQ on scaled AAE, tuned or not", f.naiveScaled < f.scaled[0] && f.naiveScaled < f.scaled[1]},
		{"IBL N = 1 below naive on AAE and scaled AAE", ibl[0][0] < f.naive && ibl[0][1] < f.naiveScaled},
		{"APQ's AAE, tuned or not, above the mean wait (answering 0 for every job)", f.test[0] > f.meanWait && tuned > f.meanWait},
		{"tuned APQ below IBL at N = 20 and 56, above it at N = 1 and 5", ibl[0][0] < tuned && ibl[1][0] < tuned && tuned < ibl[2][0] && tuned < ibl[3][0]},
	}), nil
}

// tuneSP2Claims are the README's claims about the SDSC SP2 -tune tables.
func tuneSP2Claims(f tuneFigures) []claim {
	below := f.test[0] < f.naive && f.test[1] < f.naive
	for _, n := range f.ibl {
		below = below && f.test[0] < n[0] && f.test[1] < n[0]
	}
	return []claim{
		{"500 test jobs", f.jobs == 500},
		{"the search lowers the validation and test AAE", f.val[1] < f.val[0] && f.test[1] < f.test[0]},
		{"the search raises the scaled AAE", f.scaled[1] > f.scaled[0]},
		{"APQ, tuned or not, below the naive baseline and IBL at every N on AAE", below},
		{"APQ's AAE below the mean wait", f.test[1] < f.meanWait && f.test[0] < f.meanWait},
		{"naive below APQ on scaled AAE, tuned or not", f.naiveScaled < f.scaled[0] && f.naiveScaled < f.scaled[1]},
		{"IBL N = 1 below the naive baseline on scaled AAE", f.ibl[0][1] < f.naiveScaled},
	}
}

// The same -tune run on SDSC SP2 (tuneSP2Runs, about 110 s of CPU).
var tuneSP2Digests = map[string]string{
	"tunesp2-1": "563d49d2009e686b998d542dc474f028e6e05fa5eea563f01d898af1debf6f6e",
	"tunesp2-3": "25fea87430a38590fb891d92f0072d21b9fdd41db515e003558ce3bd1b1861d9",
	"tunesp2-4": "8104244937104e164267eb0cfa7359467a4268ea09431793776796165b028cba",
}

func TestReadmeTuneSP2(t *testing.T) { checkRuns(t, tuneSP2Digests, tuneSP2Runs) }

// -tables SEEDS, size-aware wait (seedsRuns).
var seedsDigests = map[string]string{
	"seeds-1":       "cc3192180d43c0dbbe7c2a1338f73e3f047ef5d91ef5741f05493374ff02aabf",
	"seeds-curie-1": "2a4a6a5e3713b58ad7b040ee3cb0f4445bf916a3b5a238a066afd007f2641907",
}

func TestReadmeSeeds(t *testing.T) { checkRuns(t, seedsDigests, seedsRuns) }

// -tables SEEDS -floor off (seedsPaperRuns).
var seedsPaperDigests = map[string]string{
	"seeds-paper-1": "4b3904b8ae847964f5997aebe79fdd70352bb275b6931a2615bc21a3013f79ce",
}

func TestReadmeSeedsPaper(t *testing.T) { checkRuns(t, seedsPaperDigests, seedsPaperRuns) }

// The CI slices of the long tests above (BATCHQ_LONG=1; CI runs them with
// -run): a run of the README on one log alone (`-only`), through
// readmeRegions. The log's row of each of the run's tables must be the
// README's line as printed (the regions themselves are pinned by their
// digests).

// TestReadmeSliceVI is TestReadmeTables' run "vi" (`-tables VI,VII`, the
// range-set runtime predictors) on SDSC SP2 (6 s of CPU).
func TestReadmeSliceVI(t *testing.T) { checkSlice(t, readmeRuns, "vi", "SP2", tablesDigests) }

// The runs of Tables V and VIII–IX cost more than a slice may, even on one
// log (measured, both passing): `-tables V` on SDSC Paragon, the smallest,
// 164 s of CPU (QBETS, IBL and APQ in both representations);
// TestReadmeFloor's run on SP2 276 s.

// checkSlice runs run name of runs on one log alone (-only only) and
// checks its rows.
func checkSlice(t *testing.T, runs []readmeRun, name, only string, digests map[string]string) {
	t.Helper()
	if !readme.Long() {
		t.Skipf("run %s on %s: set %s=1", name, only, readme.LongEnv)
	}
	r := runs[slices.IndexFunc(runs, func(r readmeRun) bool { return r.name == name })]
	r.opt.Only = only
	log := paperTraces[slices.IndexFunc(paperTraces, func(pt struct{ Name, File string }) bool { return matches(pt.File, only) })].Name
	out, err := readmeRegions(paperDir(t), []readmeRun{r})
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != len(runDigests(digests, r.name)) {
		t.Errorf("%d tables computed, the README has %d of run %s", len(out), len(runDigests(digests, r.name)), r.name)
	}
	for _, name := range slices.Sorted(maps.Keys(out)) {
		want, err := readme.Region(doc, name)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.SplitAfter(string(out[name]), "\n")
		if len(lines) != 4 || !strings.HasPrefix(lines[2], "| "+log+" |") {
			t.Errorf("region %s: want a header, a rule and %s's row, computed\n%s", name, log, out[name])
			continue
		}
		if !strings.HasPrefix(string(want), lines[0]+lines[1]) {
			t.Errorf("README.md region %s: its header is not the computed one\n%s", name, lines[0])
		}
		if !strings.Contains(string(want), lines[2]) {
			t.Errorf("README.md region %s lacks the recomputed row\n%s", name, lines[2])
		}
	}
}

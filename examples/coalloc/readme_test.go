package main

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/readme"
	"github.com/batchq/batchq/internal/tracetest"
)

// defaultMachinesOf loads the five default machines, skipping (or failing
// in CI) without their traces.
func defaultMachinesOf(t *testing.T) []machine {
	t.Helper()
	var paths []string
	for _, name := range defaultMachines {
		paths = append(paths, tracetest.Path(t, name))
	}
	ms, err := loadMachines(paths, false)
	if err != nil {
		t.Fatal(err)
	}
	return ms
}

// The README's long regions, by the SHA-256 of their text: every method
// over five windows, COUNT = 3, -diag and -drop (27 runs, 13 minutes on
// the shared 2-core machine under load). Regenerate them and print the new
// digests with
//
//	BATCHQ_LONG=1 BATCHQ_UPDATE_README=1 go test ./examples/coalloc -run TestReadmeStudy
var studyDigests = map[string]string{
	"cells":        "cbac92c9164b5681892561946faed1d78524f354021636a9d3a477f6df0dc242",
	"windows":      "805a7d7190206fa6ce7146d2b6078247ec220c3e98e6797bc0e80f9a72719122",
	"cost":         "386a4fee9b7e96f8f16c6db57360695895ad10669e9f28ac340db83463edb834",
	"executed":     "872cffcfa17a4d010cd333c182afba1db6537548644140b80749e9a2817999b1",
	"status":       "9d2455892366500ecfcb803eefb72745fdd8999e329b542a74170027f2e667e3",
	"why":          "dbcba56068369b24c7019a7ce4ae49c8593e1f8167bb746f12696c77a8518af1",
	"remedies":     "43ab92b37e1884c013581a197c9dac5130087133f779ea6f7dcad284527608f8",
	"noise":        "9450fdea7c79a93956c9e5a6b7ecd9124e20710de52c6c02c5d049098c789a45",
	"count3":       "26c8ee0ebafe887310a769c2b840a6a7551d996ddb44c86233b01b748e93def7",
	"none":         "369e448383ff312a3f43fcbb46750a684dccc136b0a6543086c1658a7d9e72a2",
	"none-windows": "6423e99c62b7b26c51c8247a9820960f3c96372e2e62000b912b0a4bd7fe6a6c",
	"diag":         "efab333a0287b422df35bd96edf56a3070f5ef0b0ed9dce2d33293f77f3cf8f1",
}

func TestReadmeStudy(t *testing.T) {
	readme.CheckLong(t, "README.md", studyDigests, func() map[string][]byte {
		st, err := runStudy(defaultMachinesOf(t), os.Stderr)
		if err != nil {
			t.Fatal(err)
		}
		return st.regions()
	})
}

// TestReadmeSliceNone is the CI slice of TestReadmeStudy (BATCHQ_LONG=1;
// CI runs it with -run): one of its 27 runs, the thesis's method (`none`)
// over 120 days, through runTrials as the study makes it. It recomputes
// the whole "none" region and that run's cells of the "windows" and
// "none-windows" tables, which must be the README's as printed (the
// regions themselves are pinned by their digests).
func TestReadmeSliceNone(t *testing.T) {
	if !readme.Long() {
		t.Skipf("one run of the study on five machines: set %s=1", readme.LongEnv)
	}
	const day = 1 // windows[1], 120 days
	ms := defaultMachinesOf(t)
	sums, _, err := runTrials(ms, studyOptions("none", windows[day], 2))
	if err != nil {
		t.Fatal(err)
	}
	st := &study{ms: ms, sums: map[string][][]trialSummary{"none": make([][]trialSummary, len(windows))}}
	st.sums["none"][day] = sums
	if st.changed, err = loadedChanges(ms, studyOptions("none", windows[day], 2)); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	st.noneRun(&b)
	readme.Check(t, "README.md", "none", b.Bytes())
	k := slices.Index(methods, "none")
	for i, tr := range table62 {
		checkCell(t, "windows", i*len(methods)+k, 3+day, achievedCell(sums[i], tr.PAll))
		v := fmt.Sprintf("%.3f", sums[i].pAchieved)
		if sums[i].pAchieved < tr.PAll {
			v = "**" + v + "**"
		}
		checkCell(t, "none-windows", i, 3+day, v)
	}
}

// checkCell checks that cell col of body row r of the first table in the
// README's region is want (cells counted from 0, the header and rule not
// rows).
func checkCell(t *testing.T, region string, r, col int, want string) {
	t.Helper()
	text := readme.RegionOf(t, "README.md", region)
	lines := strings.Split(text, "\n")
	if len(lines) < r+3 {
		t.Fatalf("README.md region %s has no row %d", region, r)
	}
	row := lines[r+2]
	cells := strings.Split(strings.Trim(row, "|"), "|")
	if col >= len(cells) {
		t.Fatalf("README.md region %s: row %q has no cell %d", region, row, col)
	}
	if got := strings.TrimSpace(cells[col]); got != want {
		t.Errorf("README.md region %s, row %q, cell %d: README %q, recomputed %q", region, row, col, got, want)
	}
}

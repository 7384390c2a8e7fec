package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/readme"
	"github.com/batchq/batchq/internal/tracetest"
)

// The README's IBL tables, by the SHA-256 of their text (15 replays of
// KTH, SDSC-SP2 and CTC, about 9 minutes). Regenerate them and print
// the new digests with
//
//	BATCHQ_LONG=1 BATCHQ_UPDATE_README=1 go test ./examples/qserve -run TestReadmeIBL
var iblDigests = map[string]string{
	"ibl":      "431100365bfabfe107e2b4412db7d8b84ace3e9f4ec631f4fba888decdab68a8",
	"ibl-long": "25201de520fd0ae81bf7fe797462bab015946fadec7ab588eb6ab0be3bb2193b",
	"ibl-n":    "3de124d2ce104ca628dd7b29bcf6ac1156b904ec14d06fbb2ac48291c4918e94",
}

func TestReadmeIBL(t *testing.T) {
	readme.CheckLong(t, "README.md", iblDigests, func() map[string][]byte {
		var dir string
		for _, name := range iblTraces {
			dir = filepath.Dir(tracetest.Path(t, name))
		}
		out, err := iblRegions(dir, iblTraces, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		return out
	})
}

// TestReadmeSliceIBL is the CI slice of TestReadmeIBL (BATCHQ_LONG=1; CI
// runs it with -run): the five replays of the first trace, KTH-SP2, the
// smallest, through iblRegions. Its rows of the ibl and ibl-n tables must
// be the README's lines as printed, and its cells of the ibl-long table
// the README's (the regions themselves are pinned by their digests).
func TestReadmeSliceIBL(t *testing.T) {
	if !readme.Long() {
		t.Skipf("five IBL replays of KTH-SP2: set %s=1", readme.LongEnv)
	}
	name := iblTraces[0]
	out, err := iblRegions(filepath.Dir(tracetest.Path(t, name)), []string{name}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	short := tracetest.ShortName(name)
	for region, rows := range map[string]int{"ibl": 2, "ibl-n": 2, "ibl-long": 2} {
		want, err := readme.Region(doc, region)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for l := range strings.Lines(string(out[region])) {
			switch {
			case region == "ibl-long" && (strings.HasPrefix(l, "| not queued |") || strings.HasPrefix(l, "| queued |")):
				// One column per trace: the slice's row is the label
				// and its first trace's cell.
				cells := strings.SplitAfterN(l, " |", 3)
				prefix := cells[0] + cells[1]
				n++
				if !strings.Contains(string(want), "\n"+prefix) {
					t.Errorf("README.md region %s lacks a row starting with the recomputed %q", region, prefix)
				}
			case region != "ibl-long" && strings.Contains(l, "| "+short+" |"):
				n++
				if !strings.Contains(string(want), l) {
					t.Errorf("README.md region %s lacks the recomputed row\n%s", region, l)
				}
			}
		}
		if n != rows {
			t.Errorf("region %s: %d rows of %s recomputed, want %d:\n%s", region, n, short, rows, out[region])
		}
	}
}

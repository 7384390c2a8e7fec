package main

import (
	"bytes"
	"cmp"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/batchq/batchq/examples/internal/readme"
)

// The README's tables are the command's own: each run below prints its
// tables, and the k-th Markdown table of run NAME is the README's region
// NAME-k. Each group of runs is pinned by its own test (readme_test.go),
// so that each can be regenerated alone.

// readmeRun is one run of the command whose tables the README shows.
type readmeRun struct {
	name string
	opt  options // Dir is set by the caller; a zero Seed means the -seed default
	// shown are the k of the tables the README shows, all when nil.
	shown []int
}

// readmeRuns are the README's runs of Tables V–IX: `go run ./examples/apq
// -tables V`, `-tables VI,VII` and `-tables VIII,IX`, on all four logs
// (TestReadmeTables).
var readmeRuns = []readmeRun{
	{"v", options{Tables: "V"}, nil},
	{"vi", options{Tables: "VI,VII"}, nil},
	{"viii", options{Tables: "VIII,IX"}, nil},
}

// The runs of the README's sections below Tables V–IX, one group per test.
var (
	// noGrowRuns: `-tables VIII,IX -nogrow -floor off`, the two main
	// tables (TestReadmeNoGrow).
	noGrowRuns = []readmeRun{{"nogrow", options{Tables: "VIII,IX", NoGrow: true, Floor: floorOff}, []int{1, 4}}}
	// floorRuns: `-tables VIII,IX -floor running -flooronly`, all its
	// tables (TestReadmeFloor).
	floorRuns = []readmeRun{{"floor", options{Tables: "VIII,IX", Floor: floorRunning, FloorOnly: true}, nil}}
	// tuneRuns: `-tables V -tune -quick -only Par`, its table of tuned
	// parameters and its IBL-by-N table of the same test jobs
	// (TestReadmeTune, in the plain go test). -quick validates
	// and tests on 500 jobs each, and Paragon's summary representation
	// has no Bins to tune: the whole run is about 40 s of CPU, where
	// `-tables V -tune` on the four logs took an hour.
	// Its fifth table, AAE by actual-wait class, is not shown: the
	// README gives only its class counts (TestReadmeTune checks them).
	tuneRuns = []readmeRun{{"tune", options{Tables: "V", Tune: true, Quick: true, Only: "Par"}, []int{1, 2, 3, 4, 5}}}
	// tuneSP2Runs: the same on SDSC SP2, `-tables V -tune -quick -only
	// SP2`, its Table V row, search and IBL-by-N tables: about 110 s of
	// CPU, behind BATCHQ_LONG (TestReadmeTuneSP2).
	tuneSP2Runs = []readmeRun{{"tunesp2", options{Tables: "V", Tune: true, Quick: true, Only: "SP2"}, []int{1, 3, 4}}}
	// seedsRuns: the size-aware sweep, Curie on 4 seeds (its molding
	// simulations are the slowest) and the other logs on 8 (TestReadmeSeeds).
	seedsRuns = []readmeRun{
		{"seeds-curie", options{Only: "Curie", Tables: "SEEDS", Seeds: 4, Par: 2}, nil},
		{"seeds", options{Only: "Blue,Par,SP2", Tables: "SEEDS", Seeds: 8, Par: 2}, nil},
	}
	// seedsPaperRuns: the paper's method (-floor off) on Paragon and SP2,
	// 5 seeds (TestReadmeSeedsPaper).
	seedsPaperRuns = []readmeRun{{"seeds-paper", options{Only: "Par,SP2", Tables: "SEEDS", Seeds: 5, Floor: floorOff, Par: 2}, nil}}
)

// tableBlocks splits the command's output into its Markdown tables: runs
// of lines that start with "|", each with its final newline.
func tableBlocks(out string) [][]byte {
	var blocks [][]byte
	var cur bytes.Buffer
	for line := range strings.Lines(out) {
		if strings.HasPrefix(line, "|") {
			cur.WriteString(line)
			continue
		}
		if cur.Len() > 0 {
			blocks = append(blocks, bytes.Clone(cur.Bytes()))
			cur.Reset()
		}
	}
	if cur.Len() > 0 {
		blocks = append(blocks, bytes.Clone(cur.Bytes()))
	}
	return blocks
}

// readmeRegions runs each of runs on the traces in dir and names the
// tables the README shows.
func readmeRegions(dir string, runs []readmeRun) (map[string][]byte, error) {
	out := map[string][]byte{}
	for _, r := range runs {
		o := r.opt
		o.Dir = dir
		// The command's -seed default; seed 0 is another draw of the
		// molded jobs' runtimes, not the default.
		o.Seed = cmp.Or(o.Seed, defaultSeed)
		var b strings.Builder
		if err := reproduce(&b, o); err != nil {
			return nil, fmt.Errorf("%s: %w", r.name, err)
		}
		blocks := tableBlocks(b.String())
		shown := r.shown
		if shown == nil {
			for k := range blocks {
				shown = append(shown, k+1)
			}
		}
		for _, k := range shown {
			if k < 1 || k > len(blocks) {
				return nil, fmt.Errorf("%s: table %d of %d", r.name, k, len(blocks))
			}
			out[fmt.Sprintf("%s-%d", r.name, k)] = blocks[k-1]
		}
	}
	return out, nil
}

// paperKept is the paper's Table III job count of each log.
var paperKept = map[string]int{"CEA Curie": 266099, "SDSC Blue": 243314, "SDSC Paragon": 32199, "SDSC SP2": 54006}

// keptText is the README's list of the jobs kept per log against the
// paper's counts, and SDSC-SP2's count under -filter status1.
func keptText(dir string) ([]byte, error) {
	var parts []string
	status1 := ""
	for _, pt := range paperTraces {
		path := filepath.Join(dir, pt.File)
		tr, err := loadTrace(path, pt.Name, filterRan, 0)
		if err != nil {
			return nil, err
		}
		parts = append(parts, fmt.Sprintf("%s %s (%s)", pt.Name, readme.Thousands(len(tr.Jobs)), readme.Thousands(paperKept[pt.Name])))
		if pt.Name == "SDSC SP2" {
			s1, err := loadTrace(path, pt.Name, filterStatus1, 0)
			if err != nil {
				return nil, err
			}
			status1 = fmt.Sprintf(" With `-filter status1` SDSC SP2 keeps %s.", readme.Thousands(len(s1.Jobs)))
		}
	}
	return []byte(strings.Join(parts, ", ") + "." + status1 + "\n"), nil
}

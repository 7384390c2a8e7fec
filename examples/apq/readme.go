package main

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/batchq/batchq/examples/internal/readme"
)

// The README's tables are the command's own: each run below prints its
// tables, and the k-th Markdown table of run NAME is the README's region
// NAME-k. TestReadmeTables regenerates and checks them.

// readmeRun is one run of the command whose tables the README shows.
type readmeRun struct {
	name string
	opt  options // Dir is set by the caller
}

// readmeRuns are the README's runs: `go run ./examples/apq -tables V`,
// `-tables VI,VII` and `-tables VIII,IX`, on all four logs.
var readmeRuns = []readmeRun{
	{"v", options{Tables: "V"}},
	{"vi", options{Tables: "VI,VII"}},
	{"viii", options{Tables: "VIII,IX"}},
}

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

// readmeRegions runs each README run on the traces in dir and names its
// tables.
func readmeRegions(dir string) (map[string][]byte, error) {
	out := map[string][]byte{}
	for _, r := range readmeRuns {
		o := r.opt
		o.Dir = dir
		var b strings.Builder
		if err := run(&b, o); err != nil {
			return nil, fmt.Errorf("%s: %w", r.name, err)
		}
		for k, block := range tableBlocks(b.String()) {
			out[fmt.Sprintf("%s-%d", r.name, k+1)] = block
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

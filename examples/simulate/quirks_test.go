package main

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/cli/clitest"
	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// TestQuirkLogs runs the synthetic logs of the archive's held-out logs'
// quirks (clitest.Quirks) through every policy and option that reads a
// trace: besides what every command owes (clitest.RunQuirks), every job
// read is simulated or rejected with its reason, in the JSON and in the
// text.
func TestQuirkLogs(t *testing.T) {
	if testing.Short() {
		t.Skip("many runs (-short)")
	}
	var variants [][]string
	for _, base := range [][]string{
		{"TRACE"}, {"-kill"}, {"-compat", "pyss"}, {"-compat", "predictsim"},
		{"-compat", "pyss", "-kill"}, {"-compat", "predictsim", "-kill"},
		{"-per-event"}, {"-per-event", "-kill", "-ties"}, {"-lenient"}, {"-machine", "8"},
		{"-check", "-kill"}, {"-compat", "pyss", "-check"}, {"-compat", "predictsim", "-check", "-per-event"},
		{"-jobs-out", "OUT"}, {"-kill", "-compat", "predictsim", "-jobs-out", "OUT", "-out", "OUT"},
		{"-kill", "-jobs-out", "OUT"}, {"-compat", "pyss", "-jobs-out", "OUT"}, {"-compat", "pyss", "-kill", "-jobs-out", "OUT"},
		{"-compat", "predictsim", "-jobs-out", "OUT"},
		{"-"}, {"-", "-kill"}, {"-", "-compat", "pyss"},
		{"GZTRACE"}, {"GZTRACE", "-kill"}, {"GZTRACE", "-compat", "predictsim"}, {"GZTRACE", "-per-event"},
	} {
		if base[0] != "TRACE" && base[0] != "-" && base[0] != "GZTRACE" {
			base = append([]string{"TRACE"}, base...)
		}
		variants = append(variants, base, append(slices.Clone(base), "-json"))
	}
	for _, p := range sched.Presets() {
		variants = append(variants, []string{"TRACE", "-policy", p.Name, "-json"},
			[]string{"TRACE", "-policy", p.Name, "-kill", "-json"},
			[]string{"TRACE", "-policy", p.Name, "-compat", "pyss", "-json"},
			[]string{"TRACE", "-policy", p.Name, "-compat", "predictsim", "-kill", "-json"})
	}
	clitest.RunQuirks(t, runContext, variants, func(t *testing.T, r clitest.QuirkRun) {
		name := r.Quirk.Name + " " + strings.Join(r.Args, " ")
		if r.Code == 0 && strings.Contains(r.Stderr, "panic") {
			t.Errorf("%s: %s", name, r.Stderr)
		}
		if r.Stdout == "" {
			return
		}
		if !slices.Contains(r.Args, "-json") {
			checkQuirkText(t, name, r.Stdout)
			return
		}
		var rep struct {
			Read      int            `json:"jobs_read"`
			Simulated int            `json:"jobs_simulated"`
			Rejected  int            `json:"jobs_rejected"`
			By        map[string]int `json:"rejected"`
			Changed   map[string]int `json:"changed"`
			Reader    struct {
				Skipped int `json:"skipped"`
			} `json:"reader"`
		}
		if err := json.Unmarshal([]byte(r.Stdout), &rep); err != nil {
			t.Errorf("%s: %v", name, err)
			return
		}
		sum := 0
		for _, n := range rep.By {
			sum += n
		}
		if rep.Read != rep.Simulated+rep.Rejected || sum != rep.Rejected || rep.Read < 0 || rep.Simulated < 0 {
			t.Errorf("%s: read %d, simulated %d, rejected %d (%v)", name, rep.Read, rep.Simulated, rep.Rejected, rep.By)
		}
		// The outputs hold every simulated job.
		for i, a := range r.Args[:len(r.Args)-1] {
			path := r.Args[i+1]
			if (a == "-jobs-out" || a == "-out") && rep.Simulated == 0 {
				// No job simulated: exit 1, and no file written.
				if _, err := os.Stat(path); r.Code != 1 || !os.IsNotExist(err) {
					t.Errorf("%s: no job simulated: exit %d, %s: %v; want 1 and no file", name, r.Code, a, err)
				}
				continue
			}
			switch a {
			case "-jobs-out":
				f, err := os.Open(path)
				if err != nil {
					t.Errorf("%s: %v", name, err)
					continue
				}
				rows, err := csv.NewReader(f).ReadAll()
				f.Close()
				if err != nil || len(rows)-1 != rep.Simulated {
					t.Errorf("%s: -jobs-out: %d rows, %v; want %d", name, len(rows)-1, err, rep.Simulated)
					continue
				}
				checkChanged(t, name, r.Quirk.Text, rows, rep.Changed)
			case "-out":
				h, jobs, err := swf.ReadFile(path)
				if err != nil || len(jobs) != rep.Simulated || h.MaxJobs != int64(len(jobs)) {
					t.Errorf("%s: -out: %d jobs, %v; want %d", name, len(jobs), err, rep.Simulated)
				}
			}
		}
	})
}

// checkQuirkText checks the text report's counts: the jobs read are the
// jobs simulated and rejected, and the reasons' lines add up to the
// rejected.
func checkQuirkText(t *testing.T, name, out string) {
	t.Helper()
	num := func(key string) int {
		m := regexp.MustCompile(`(?m)^` + key + ` +(\d+)`).FindStringSubmatch(out)
		if m == nil {
			return -1
		}
		n, _ := strconv.Atoi(m[1])
		return n
	}
	read, sim, rej := num("jobs read"), num("simulated"), num("rejected")
	if read < 0 || sim < 0 || rej < 0 || read != sim+rej {
		t.Errorf("%s: read %d, simulated %d, rejected %d:\n%s", name, read, sim, rej, out)
		return
	}
	sum := 0
	_, after, _ := strings.Cut(out, "\nrejected ")
	for _, l := range strings.Split(after, "\n")[1:] {
		if !strings.HasPrefix(l, "  ") {
			break
		}
		f := strings.Fields(l)
		n, err := strconv.Atoi(f[len(f)-1])
		if err != nil {
			t.Errorf("%s: reason line %q", name, l)
		}
		sum += n
	}
	if sum != rej {
		t.Errorf("%s: the reasons add up to %d, rejected %d:\n%s", name, sum, rej, out)
	}
}

// checkChanged: every simulated job whose submit time, run time, size or
// estimate is not its line's was changed by a rule, counted: at least as
// one job differs when a rule counted one, and no more than all rules
// count together.
func checkChanged(t *testing.T, name, text string, rows [][]string, changed map[string]int) {
	t.Helper()
	lines := map[string][]string{}
	seen := map[string]int{}
	for l := range strings.Lines(text) {
		f := strings.Fields(l)
		if len(f) == 18 && !strings.HasPrefix(f[0], ";") {
			lines[f[0]] = f
			seen[f[0]]++
		}
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	differ := 0
	for _, row := range rows[1:] {
		id := row[col["id"]]
		f, ok := lines[id]
		if !ok || seen[id] > 1 {
			return // (a duplicate number: which line is which is not known)
		}
		size := f[4]
		if !strings.HasPrefix(size, "-") && size != "0" && strings.Contains(name, "predictsim") && !strings.HasPrefix(f[7], "-") && f[7] != "0" {
			size = f[7]
		}
		if strings.HasPrefix(size, "-") || size == "0" {
			size = f[7]
		}
		if row[col["submit"]] != f[1] || row[col["run"]] != f[3] || row[col["procs"]] != size || row[col["estimate"]] != f[8] {
			differ++
		}
	}
	most, all := 0, 0
	for rule, n := range changed {
		if strings.HasPrefix(rule, "size_from_") {
			continue // (the size's source, which the test takes too)
		}
		most, all = max(most, n), all+n
	}
	if differ > all || differ < min(most, 1) || (differ == 0) != (all == 0) {
		t.Errorf("%s: %d jobs differ from their lines, the rules counted %v", name, differ, changed)
	}
}

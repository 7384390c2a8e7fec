package main

import (
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// peerLine is one SWF line of the logs of TestPeerRules: the fields the
// peers read (number, submit, run, allocated, requested, estimate,
// status, user), the others -1.
func peerLine(id, submit int64, run string, alloc, req, est, status, user int64) string {
	return fmt.Sprintf("%d %d -1 %s %d -1 -1 %d %d -1 %d %d -1 -1 1 -1 -1 -1\n", id, submit, run, alloc, req, est, status, user)
}

// peerRulesCase is a small log that carries one quirk of the archive's
// held-out logs, with what each peer made of it: its per-job schedule
// ("id submit start end procs estimate", sorted by id, as peers.txt
// normalizes it), as the real peers gave it on this very log (pyss at
// 44a2423 through testdata/pyss_jobs.py with EasyBackfillScheduler,
// predictsim at 3bb276a with easy_backfill_scheduler; P = 16; python
// 2.7.18), or "" where the peer failed on the log (then batchq's deliberate
// difference is checked by the case's check).
type peerRulesCase struct {
	name             string
	lines            string
	pyss, predictsim string
	// changed and rejected are batchq's counts (the same in both modes
	// unless changedPredictsim is set): every job a rule changed or
	// rejected, by name.
	changed, changedPredictsim, rejected map[string]int
	warn                                 string // a warning the text report must carry in a peer mode
}

// TestPeerRules runs logs that each carry one quirk of the archive's
// held-out logs through -compat pyss and -compat predictsim, with and
// without -kill, and checks each job against what the real peer did with
// the same log (or, where the peer fails on it, that batchq's deliberate
// difference is counted): sizes beyond the machine or missing, estimates
// missing, 0 or below the run, run times 0 or −1, submit times out of
// order, a gap of six months, partial executions, a job number twice, an
// invalid line wider than the machine and a fractional run time. -kill
// changes no peer schedule (killed 0). sched.Peer's doc lists the peers'
// rules with the lines of their code.
func TestPeerRules(t *testing.T) {
	const hdr = "; MaxProcs: 16\n"
	cases := []peerRulesCase{{
		// pyss: processors from field 5, an invalid line (field 5 ≤ 0)
		// a 1-second job on max(1, field 5); predictsim: field 8, else
		// field 5. Both clamp a valid line's size to the machine.
		name: "sizes",
		lines: peerLine(1, 10, "100", 8, 8, 200, 1, 1) + peerLine(2, 20, "100", 32, 32, 300, 1, 2) +
			peerLine(3, 30, "50", -1, 8, 100, 1, 3) + peerLine(4, 40, "50", -1, 32, 100, 1, 4) +
			peerLine(5, 50, "50", 0, 4, 100, 1, 5) + peerLine(6, 60, "50", 4, -1, 100, 1, 6) +
			peerLine(7, 70, "50", 4, 0, 100, 1, 7) + peerLine(8, 80, "50", 20, 4, 100, 1, 8) +
			peerLine(9, 90, "50", 4, 20, 100, 1, 9),
		pyss: "1 10 10 110 8 200\n2 20 120 220 16 300\n3 30 30 31 1 1\n4 40 40 41 1 1\n5 50 50 51 1 1\n" +
			"6 60 60 110 4 100\n7 70 70 120 4 100\n8 80 220 270 16 100\n9 90 270 320 4 100\n",
		predictsim: "1 10 10 110 8 200\n2 20 130 230 16 300\n3 30 30 80 8 100\n4 40 230 280 16 100\n5 50 80 130 4 100\n" +
			"6 60 80 130 4 100\n7 70 280 330 4 100\n8 80 280 330 4 100\n9 90 330 380 16 100\n",
		changed:           map[string]int{"no_size_1s_job": 3, "size_clamped_to_machine": 2},
		changedPredictsim: map[string]int{"size_clamped_to_machine": 3, "size_from_allocated": 2},
	}, {
		// estimate = max(field 9, run, 1), run = max(min(field 9, run), 1).
		name: "estimates",
		lines: peerLine(1, 10, "100", 8, 8, -1, 1, 1) + peerLine(2, 20, "100", 8, 8, 0, 1, 2) +
			peerLine(3, 30, "100", 8, 8, 50, 1, 3) + peerLine(4, 40, "100", 8, 8, 100, 1, 4) +
			peerLine(5, 50, "100", 8, 8, 1, 1, 5) + peerLine(6, 60, "100", 16, 16, -1, 1, 6),
		pyss:    "1 10 10 11 8 100\n2 20 20 21 8 100\n3 30 30 80 8 100\n4 40 40 140 8 100\n5 50 80 81 8 100\n6 60 140 141 16 100\n",
		changed: map[string]int{"no_estimate_1s_run": 3, "run_cut_to_estimate": 2},
	}, {
		// Run time 0 or −1 (status 0, 1, 5 alike: no peer reads it): a
		// 1-second job with estimate 1, submitted at max(submit, 1).
		name: "run times",
		lines: peerLine(1, 0, "0", 8, 8, 100, 1, 1) + peerLine(2, 0, "-1", 8, 8, 100, 5, 2) +
			peerLine(3, 10, "0", 16, 16, 100, 0, 3) + peerLine(4, 15, "100", 16, 16, 200, 1, 4) +
			peerLine(5, 20, "-1", -1, -1, -1, 5, 5),
		pyss:    "1 1 1 2 8 1\n2 1 1 2 8 1\n3 10 10 11 16 1\n4 15 15 115 16 200\n5 20 115 116 1 1\n",
		changed: map[string]int{"no_run_time_1s_job": 2, "zero_run_time_1s_job": 2, "no_size_1s_job": 1, "submit_0_moved_to_1": 2},
	}, {
		// Submit times out of order: the peers' event queue takes the
		// submissions by time, those of one instant in line order.
		name: "order",
		lines: peerLine(1, 100, "50", 8, 8, 100, 1, 1) + peerLine(2, 50, "50", 16, 16, 100, 1, 2) +
			peerLine(3, 100, "50", 8, 8, 100, 1, 3) + peerLine(4, 10, "50", 4, 4, 100, 1, 4) +
			peerLine(5, 50, "50", 4, 4, 100, 1, 5) + peerLine(6, 0, "50", 4, 4, 100, 1, 6),
		pyss: "1 100 110 160 8 100\n2 50 60 110 16 100\n3 100 160 210 8 100\n4 10 10 60 4 100\n5 50 110 160 4 100\n6 0 0 50 4 100\n",
		warn: "3 job lines earlier than the line before them",
	}, {
		// Six months without a job, twice.
		name: "gap",
		lines: peerLine(1, 10, "100", 8, 8, 200, 1, 1) + peerLine(2, 20, "100", 16, 16, 200, 1, 2) +
			peerLine(3, 15552000, "100", 8, 8, 200, 1, 3) + peerLine(4, 15552010, "100", 16, 16, 50, 1, 4) +
			peerLine(5, 31104000, "100", 16, 16, 200, 1, 5) + peerLine(6, 31104001, "100", 16, 16, 200, 1, 6),
		pyss: "1 10 10 110 8 200\n2 20 110 210 16 200\n3 15552000 15552000 15552100 8 200\n" +
			"4 15552010 15552100 15552150 16 100\n5 31104000 31104000 31104100 16 200\n6 31104001 31104100 31104200 16 200\n",
		changed: map[string]int{"run_cut_to_estimate": 1},
	}, {
		// A job in partial executions (status 2 and 3 under its number,
		// its summary line status 1): pyss fails an assertion
		// (schedulers/common.py:61, the number twice in one slice),
		// predictsim a KeyError; batchq keeps the summary lines.
		name: "partial executions",
		lines: peerLine(1, 10, "100", 8, 8, 200, 0, 1) + peerLine(2, 20, "100", 8, 8, 200, 1, 2) +
			peerLine(3, 30, "100", 8, 8, 200, 5, 3) + peerLine(4, 40, "100", 8, 8, 200, 2, 4) +
			peerLine(4, 300, "100", 8, 8, 200, 3, 4) + peerLine(5, 50, "400", 4, 4, 900, 1, 5) +
			peerLine(5, 50, "200", 4, 4, 900, 2, 5) + peerLine(5, 400, "200", 4, 4, 900, 3, 5),
		rejected: map[string]int{"partial_execution": 4},
	}, {
		// The same number twice, the runs apart in time: both peers
		// simulate both; batchq keeps the first (sched.Peer).
		name:     "number twice",
		lines:    peerLine(1, 10, "100", 8, 8, 200, 1, 1) + peerLine(2, 20, "100", 8, 8, 200, 1, 2) + peerLine(1, 500, "100", 8, 8, 200, 1, 1),
		rejected: map[string]int{"duplicate_id": 1},
	}, {
		// An invalid line (run −1, a cancelled job) wider than the
		// machine: the peers keep max(1, field 5) unclamped and fail
		// (pyss's assertion in CpuSnapshot.jobEarliestAssignment,
		// schedulers/common.py:199; predictsim finds no start, a
		// TypeError); batchq clamps it and counts it apart.
		name:    "invalid line wider than the machine",
		lines:   peerLine(1, 10, "100", 8, 8, 200, 1, 1) + peerLine(2, 20, "-1", 32, 32, 300, 5, 2) + peerLine(3, 30, "100", 4, 4, 100, 1, 3),
		changed: map[string]int{"no_run_time_1s_job": 1, "size_clamped_peer_fails": 1},
	}, {
		// A run time with a fraction: the peers read field 4 as a float
		// and truncate (int(max(...)) in _job_input_to_job: 100.7 s over
		// an estimate of 50 gives estimate 100, and 0.4 s is a valid
		// 1-second run with its estimate); package swf rounds it (101,
		// 0), which the warning says.
		name:    "fractional run time",
		lines:   peerLine(1, 10, "100.7", 8, 8, 50, 1, 1) + peerLine(2, 20, "100.2", 8, 8, 200, 1, 2) + peerLine(3, 30, "0.4", 8, 8, 200, 1, 3),
		changed: map[string]int{"run_cut_to_estimate": 1, "zero_run_time_1s_job": 1},
		warn:    "the peer truncates a run time's fraction",
	}}
	dir := t.TempDir()
	for i, c := range cases {
		trace := writeTrace(t, dir, fmt.Sprintf("case%d.swf", i), hdr+c.lines)
		for _, mode := range []string{"pyss", "predictsim"} {
			want := c.pyss
			if mode == "predictsim" && c.predictsim != "" {
				want = c.predictsim
			}
			changed := c.changed
			if mode == "predictsim" && c.changedPredictsim != nil {
				changed = c.changedPredictsim
			}
			for _, kill := range []bool{false, true} {
				args := []string{trace, "-compat", mode}
				if kill {
					args = append(args, "-kill")
				}
				name := c.name + " " + strings.Join(args[1:], " ")
				out := filepath.Join(dir, "jobs.csv")
				m := runJSON(t, append(args, "-jobs-out", out)...)
				got := peerRulesSchedule(t, out)
				if want != "" && got != want {
					t.Errorf("%s: schedule\n%s, the peer's\n%s", name, got, want)
				}
				if k := m["killed"].(float64); k != 0 {
					t.Errorf("%s: killed %v, want 0 (the peer cuts every run at its estimate)", name, k)
				}
				if g := countsOf(m["changed"]); !mapsEqual(g, changed) {
					t.Errorf("%s: changed %v, want %v", name, g, changed)
				}
				if g := countsOf(m["rejected"]); !mapsEqual(g, c.rejected) {
					t.Errorf("%s: rejected %v, want %v", name, g, c.rejected)
				}
				if c.warn != "" {
					code, text, errs := runCmd(t, args...)
					if code != 0 || !strings.Contains(text, c.warn) {
						t.Errorf("%s: exit %d, no warning %q:\n%s%s", name, code, c.warn, text, errs)
					}
				}
			}
		}
	}
}

// peerRulesSchedule reads a -jobs-out file as peers.txt normalizes it:
// "id submit start end procs estimate" a line, sorted by id.
func peerRulesSchedule(t *testing.T, path string) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil || len(rows) == 0 {
		t.Fatalf("%s: %v", path, err)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	var lines []string
	for _, r := range rows[1:] {
		lines = append(lines, fmt.Sprintf("%s %s %s %s %s %s\n", r[col["id"]], r[col["submit"]], r[col["start"]], r[col["end"]], r[col["procs"]], r[col["estimate"]]))
	}
	slices.SortFunc(lines, func(a, b string) int {
		var x, y int64
		fmt.Sscan(a, &x)
		fmt.Sscan(b, &y)
		return int(x - y)
	})
	return strings.Join(lines, "")
}

// countsOf reads a JSON object of counts (nil for none).
func countsOf(v any) map[string]int {
	m, _ := v.(map[string]any)
	if len(m) == 0 {
		return nil
	}
	out := make(map[string]int, len(m))
	for k, n := range m {
		out[k] = int(n.(float64))
	}
	return out
}

func mapsEqual(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

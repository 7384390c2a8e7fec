package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// -json says how many jobs were replayed and how many were skipped for
// want of a logged wait, as the text's first line does, so that its
// counts add up to the log's jobs (read = replayed + skipped_no_wait +
// Σ rejected); it had neither (SDSC-Par: 805 skipped, in the text only).
func TestJSONCountsAddUp(t *testing.T) {
	log := "; MaxProcs: 64\n" +
		"1 0 10 100 4 -1 -1 4 200 -1 1 1 1 1 1 -1 -1 -1\n" +
		"2 5 -1 100 4 -1 -1 4 200 -1 1 1 1 1 1 -1 -1 -1\n" + // no wait: skipped
		"1 7 3 100 4 -1 -1 4 200 -1 1 1 1 1 1 -1 -1 -1\n" + // job 1 again: rejected
		"3 9 0 100 4 -1 -1 4 200 -1 1 1 1 1 1 -1 -1 -1\n" +
		"4 12 0 100 4 -1 -1 4 200 -1 1 1 1 1 1 -1 -1 -1\n"
	path := filepath.Join(t.TempDir(), "log.swf")
	if err := os.WriteFile(path, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCmd(t, "-json", "-predictors", "naive,forecast", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	for _, l := range lines {
		var r struct {
			Replayed      *int           `json:"replayed"`
			SkippedNoWait *int           `json:"skipped_no_wait"`
			Rejected      map[string]int `json:"rejected"`
		}
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		if r.Replayed == nil || r.SkippedNoWait == nil || *r.Replayed != 3 || *r.SkippedNoWait != 1 || r.Rejected["duplicate_id"] != 1 {
			t.Errorf("%s: want replayed 3, skipped_no_wait 1, rejected duplicate_id 1 (5 jobs read)", l)
		}
	}
	if len(lines) != 2 {
		t.Errorf("%d lines, want 2:\n%s", len(lines), stdout)
	}
}

// With -nodes, the nodes file's lines left out or kept with an anomaly
// are said by reason in the text and -json, as simulate's "nodes read"
// line says them; forecast dropped the nodes file's report (a kind of
// count 0 went unsaid).
func TestNodesReportSaid(t *testing.T) {
	dir := t.TempDir()
	log := "; MaxProcs: 8\n" +
		"1 0 10 100 4 -1 -1 4 200 -1 1 1 1 1 1 -1 -1 -1\n" +
		"2 5 3 100 4 -1 -1 4 200 -1 1 1 1 1 1 -1 -1 -1\n"
	trace, nodes := filepath.Join(dir, "log.swf"), filepath.Join(dir, "nodes.csv")
	if err := os.WriteFile(trace, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(nodes, []byte("kind,count,cores,memory,gpus,gpu_model\na,0,4,0,0,\nb,2,4,100,0,V100\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCmd(t, "-nodes", nodes, "-predictors", "naive", trace)
	if want := "-nodes nodes.csv: lines skipped: count 0 1; lines kept with anomalies: GPU model without GPUs 1"; code != 0 || !strings.Contains(stdout, want) {
		t.Errorf("exit %d, %s%s; want %q", code, stdout, stderr, want)
	}
	code, stdout, stderr = runCmd(t, "-nodes", nodes, "-predictors", "naive", "-json", trace)
	var r struct {
		Skipped   map[string]int `json:"nodes_skipped"`
		Anomalies map[string]int `json:"nodes_anomalies"`
	}
	if err := json.Unmarshal([]byte(stdout), &r); code != 0 || err != nil || r.Skipped["count 0"] != 1 || r.Anomalies["GPU model without GPUs"] != 1 {
		t.Errorf("-json: exit %d, %v, %s%s; want nodes_skipped and nodes_anomalies", code, err, stdout, stderr)
	}
}

// With -nodes, the nodes file's notes (a column repeated, or unknown,
// and not read) are said in the text and -json, as simulate says them
// under "nodes read": a misspelt "memroy" column left the machine without
// memory without a word.
func TestNodesNotesSaid(t *testing.T) {
	dir := t.TempDir()
	log := "; MaxProcs: 8\n" +
		"1 0 10 100 4 -1 -1 4 200 -1 1 1 1 1 1 -1 -1 -1\n" +
		"2 5 3 100 4 -1 -1 4 200 -1 1 1 1 1 1 -1 -1 -1\n"
	trace, nodes := filepath.Join(dir, "log.swf"), filepath.Join(dir, "nodes.csv")
	if err := os.WriteFile(trace, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(nodes, []byte("kind,count,cores,memroy,gpus,gpu_model\nb,2,4,100,0,\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCmd(t, "-nodes", nodes, "-predictors", "naive", trace)
	if want := "-nodes nodes.csv: note: no column memory: memory 0"; code != 0 || !strings.Contains(stdout, want) || !strings.Contains(stdout, "memroy") {
		t.Errorf("exit %d, %s%s; want %q and the unknown column named", code, stdout, stderr, want)
	}
	code, stdout, stderr = runCmd(t, "-nodes", nodes, "-predictors", "naive", "-json", trace)
	var r struct {
		Notes []string `json:"nodes_notes"`
	}
	if err := json.Unmarshal([]byte(stdout), &r); code != 0 || err != nil || !slices.Contains(r.Notes, "no column memory: memory 0") {
		t.Errorf("-json: exit %d, %v, %s%s; want nodes_notes", code, err, stdout, stderr)
	}
}

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/readme"
	"github.com/batchq/batchq/internal/tracetest"
)

// lanlMachines are the machines of the LANL CM-5 table: the pool of its
// header (MaxProcs 1,024), its 1,024 nodes of one processor and 32 MB
// (the CM-5's node: one SPARC with its vector units and 32 MB; the log's
// header states the node count, not the memory), and a hypothetical
// machine of 16 MB nodes to show what counting memory does when jobs ask
// more than a node has.
var lanlMachines = []struct {
	name  string
	nodes string // the nodes file, "" for the pool
	flags []string
}{
	{"pool of 1,024 processors (header MaxProcs)", "", nil},
	{"pool of 1,024 processors, every job ending at the shadow counted", "", []string{"-ties"}},
	{"1,024 nodes × 1 processor, 32 MiB", "kind,count,cores,memory\ncm5,1024,1,32\n", nil},
	{"1,024 nodes × 1 processor, 32 MiB", "kind,count,cores,memory\ncm5,1024,1,32\n", []string{"-count-memory"}},
	{"hypothetical: 1,024 nodes × 1 processor, 16 MiB", "kind,count,cores,memory\nhalf,1024,1,16\n", []string{"-count-memory"}},
}

// TestReadmeLANLMemory runs EASY on the LANL CM-5 log with and without
// -count-memory (BATCHQ_LONG=1: a run on the 1,024 nodes takes about 0.4 s
// of CPU, counting memory or not, against 0.12 s on the pool; measured
// 2026-12-03, it was about 16 s counting memory).
func TestReadmeLANLMemory(t *testing.T) {
	if os.Getenv("BATCHQ_LONG") == "" {
		t.Skip("BATCHQ_LONG=1 runs it (about 1.4 s of CPU)")
	}
	p := tracetest.Path(t, tracetest.LANLCM5)
	dir := t.TempDir()
	var b strings.Builder
	fmt.Fprintln(&b, "| machine | flags | simulated | fit no node | mean wait (s) | p95 wait (s) | waited | utilization | cores held | memory held |")
	fmt.Fprintln(&b, "|---|---|---:|---|---:|---:|---:|---:|---:|---:|")
	for i, m := range lanlMachines {
		args := append([]string{p}, m.flags...)
		if m.nodes != "" {
			f := filepath.Join(dir, fmt.Sprintf("n%d.csv", i))
			if err := os.WriteFile(f, []byte(m.nodes), 0o644); err != nil {
				t.Fatal(err)
			}
			args = append(args, "-nodes", f)
		}
		r := runJSON(t, args...)
		nn := map[string]int{}
		if x, ok := r["no_node"].(map[string]any); ok {
			for k, v := range x {
				nn[k] = int(v.(float64))
			}
		}
		w := r["waits"].(map[string]any)["simulated"].(map[string]any)
		u := r["use"].(map[string]any)
		held := func(k string) string {
			if m.nodes == "" && k == "memory" {
				return "–"
			}
			return fmt.Sprintf("%.4f", u[k].(float64))
		}
		flags := strings.Join(m.flags, " ")
		if flags == "" {
			flags = "–"
		}
		fmt.Fprintf(&b, "| %s | %s | %.0f | %s | %.0f | %.0f | %.3f | %.4f | %s | %s |\n", m.name, flags, r["jobs_simulated"], noNodeText(nn),
			r["mean_wait_s"], w["p95_s"], w["waited"], r["utilization"], held("cores"), held("memory"))
		if i == 0 {
			l := r["waits"].(map[string]any)["logged"].(map[string]any)
			fmt.Fprintf(&b, "| logged (the same %.0f jobs) | | | | %.0f | %.0f | %.3f | | | |\n", r["waits"].(map[string]any)["jobs"], l["mean_s"], l["p95_s"], l["waited"])
		}
	}
	readme.Check(t, "README.md", "lanl-memory", []byte(b.String()))
}

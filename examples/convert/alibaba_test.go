package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/readme"
	"github.com/batchq/batchq/internal/tracetest"
)

// TestAlibaba converts the trace's default pod list: every pod written,
// the pod names in -ids, and the node list turned down with what it is.
func TestAlibaba(t *testing.T) {
	dir := t.TempDir()
	pods := tracetest.Path(t, "alibaba-gpu-2023/openb_pod_list_default.csv")
	out, ids := filepath.Join(dir, "openb.swf"), filepath.Join(dir, "ids.txt")
	code, stdout, stderr := runCmd(t, "", "-from", "alibaba", pods, "-o", out, "-ids", ids)
	if code != exitOK || stdout != "" || !strings.Contains(stderr, "alibaba: 8152 records read, 8152 jobs written to openb.swf") {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	checkReadmeBlock(t, "alibaba", stderr)
	h, jobs := readSWF(t, out)
	if len(jobs) != 8152 || h.MaxJobs != 8152 || len(h.Queue) != 4 {
		t.Errorf("header %+v, %d jobs", h, len(jobs))
	}
	data, err := os.ReadFile(ids)
	if err != nil || !strings.HasPrefix(string(data), "1 openb-pod-0000\n") {
		t.Errorf("ids: %v %.40q", err, data)
	}
	nodes := tracetest.Path(t, "alibaba-gpu-2023/openb_node_list_all_node.csv")
	code, _, stderr = runCmd(t, "", "-from", "alibaba", nodes, "-o", out)
	if code != exitError || !strings.Contains(stderr, "node list") {
		t.Errorf("node list: exit %d\n%s", code, stderr)
	}
	code, _, stderr = runCmd(t, "", "-from", "sacct", pods, "-o", out)
	if code != exitError || !strings.Contains(stderr, "run with -from alibaba") {
		t.Errorf("sacct of pods: exit %d\n%s", code, stderr)
	}
}

// checkReadmeBlock checks (or with BATCHQ_UPDATE_README=1 rewrites) a
// generated block of README.md.
func checkReadmeBlock(t *testing.T, name, want string) {
	t.Helper()
	doc, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile("(?s)<!-- " + name + ":begin -->\n```\n(.*?)```\n<!-- " + name + ":end -->")
	if os.Getenv(readme.UpdateEnv) == "1" {
		doc = re.ReplaceAllLiteral(doc, []byte("<!-- "+name+":begin -->\n```\n"+want+"```\n<!-- "+name+":end -->"))
		if err := os.WriteFile("README.md", doc, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	m := re.FindSubmatch(doc)
	if m == nil || string(m[1]) != want {
		t.Errorf("README.md %s block is missing or stale; the command prints:\n%s", name, want)
	}
}

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A malformed line of the -nodes file, read strictly, says that -lenient
// skips it, as forecast's does (cli.ReadNodes gives both the hint);
// -lenient skips it and simulates.
func TestNodesLenientHint(t *testing.T) {
	dir := t.TempDir()
	trace, nodes := filepath.Join(dir, "log.swf"), filepath.Join(dir, "nodes.csv")
	log := "; MaxProcs: 8\n1 0 10 100 4 -1 -1 4 200 -1 1 1 1 1 1 -1 -1 -1\n2 5 3 100 4 -1 -1 4 200 -1 1 1 1 1 1 -1 -1 -1\n"
	if err := os.WriteFile(trace, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(nodes, []byte("kind,count,cores,memory,gpus,gpu_model\na,x,4,0,0,\nb,2,4,100,0,\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runCmd(t, "-nodes", nodes, trace)
	if code != 1 || !strings.Contains(stderr, `"x": not a number (-lenient skips malformed lines, counted and reported)`) {
		t.Errorf("strict: exit %d, %s; want 1 saying that -lenient skips the line", code, stderr)
	}
	if code, _, stderr := runCmd(t, "-nodes", nodes, "-lenient", trace); code != 0 {
		t.Errorf("-lenient: exit %d, %s; want the line skipped", code, stderr)
	}
}

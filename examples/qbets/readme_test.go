package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/readme"
	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/qbets/replay"
)

// The README's long regions (Tables 4.1 and 4.2 over every shared log, the
// two-level Table 4.2, the ablation, and the sentences quoting them), by
// the SHA-256 of their text. Regenerate them and print the new digests
// with (about 3 CPU-minutes):
//
//	BATCHQ_LONG=1 BATCHQ_UPDATE_README=1 go test ./examples/qbets -run TestReadmeTables
var tablesDigests = map[string]string{
	"table41":           "",
	"table42":           "",
	"table42-twolevel":  "",
	"thesis41":          "",
	"thesis42":          "",
	"reading":           "",
	"winners":           "",
	"acceptance":        "",
	"ablation-features": "",
	"ablation-settings": "",
	"cluster-modes":     "",
	"ablation-reading":  "",
}

// allTraces returns the shared traces' directory, skipping (or failing in
// CI) unless every trace is there.
func allTraces(t *testing.T) string {
	t.Helper()
	var dir string
	for _, tr := range tracetest.All {
		dir = filepath.Dir(tracetest.Path(t, tr.Name))
	}
	return dir
}

func TestReadmeTables(t *testing.T) {
	readme.CheckLong(t, "README.md", tablesDigests, func() map[string][]byte {
		dir := allTraces(t)
		m, err := measure(dir, 1000, readmeConfigs(), io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		out := readmeTables(m)
		a, err := runAblation(dir, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		for name, text := range a.regions() {
			out[name] = text
		}
		return out
	})
}

// TestReadmeKTH runs the command's tables on KTH alone, with each
// clustering, and checks that its rows are the README's: the part of the
// long regions a plain `go test` can afford. It also checks the README's
// -trace table, which is KTH's.
func TestReadmeKTH(t *testing.T) {
	if testing.Short() {
		t.Skip("replays KTH six ways (~10 s)")
	}
	dir := tracetest.DirOf(t, tracetest.KTH)
	doc, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args    []string
		regions []string // of the KTH rows, in output order
	}{
		{[]string{"-traces", dir}, []string{"table41", "table42"}},
		{[]string{"-cluster", "two-level", "-traces", dir}, []string{"table41", "table42-twolevel"}},
	} {
		var out, errb strings.Builder
		if code := run(c.args, &out, &errb); code != 0 {
			t.Fatalf("%v: exit %d: %s", c.args, code, errb.String())
		}
		for _, want := range []string{"### plain (Table 4.1)", "### QBETS (Table 4.2)", "Queues where full-QBETS BM"} {
			if !strings.Contains(out.String(), want) {
				t.Errorf("%v: output lacks %q:\n%s", c.args, want, out.String())
			}
		}
		var rows []string
		for l := range strings.Lines(out.String()) {
			if strings.HasPrefix(l, "| KTH-SP2-1996-2.1-cln/-1 |") {
				rows = append(rows, l)
			}
		}
		if len(rows) != len(c.regions) {
			t.Fatalf("%v: %d KTH rows, want %d:\n%s", c.args, len(rows), len(c.regions), out.String())
		}
		for i, name := range c.regions {
			region, err := readme.Region(doc, name)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Contains(region, []byte(rows[i])) {
				t.Errorf("README.md region %s lacks KTH's row as the command prints it (%v):\n%s", name, c.args, rows[i])
			}
		}
	}
	rows, err := scoreLog(filepath.Join(dir, tracetest.KTH), replay.Config{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	scoreTable(&b, rows)
	readme.Check(t, "README.md", "score-kth", b.Bytes())
}

// TestReadmeFigure41 draws the README's Figure 4.1 queues and checks the
// table of what their legends say (~5 s).
func TestReadmeFigure41(t *testing.T) {
	if testing.Short() {
		t.Skip("replays two queues twice (~5 s)")
	}
	dir := filepath.Dir(tracetest.Path(t, tracetest.SDSCBlue))
	tracetest.Path(t, tracetest.SDSCSP2)
	var scores []figureScore
	for _, item := range strings.Split(defaultPlotQueues, ",") {
		_, s, err := plotQueue(dir, t.TempDir(), item, 30)
		if err != nil {
			t.Fatal(err)
		}
		scores = append(scores, s)
	}
	var b bytes.Buffer
	figureTable(&b, scores)
	readme.Check(t, "README.md", "figure41", b.Bytes())
}

package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/readme"
	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/qbets/replay"
)

// The README's long regions (Tables 4.1 and 4.2 over every shared log, the
// two-level Table 4.2, the ablation, and the sentences quoting them), by
// the SHA-256 of their text. Regenerate them and print the new digests
// with (5 minutes on the shared 2-core machine):
//
//	BATCHQ_LONG=1 BATCHQ_UPDATE_README=1 go test ./examples/qbets -run TestReadmeTables
var tablesDigests = map[string]string{
	"table41":               "deccbc3cf04003dbf27ce81294223406f730b06704a6db483801a93f1794d4fe",
	"table42":               "00337a7b8e74ce4147582abc5194b410aad37af044a6b223d3190c2c482c6821",
	"table42-twolevel":      "b692b82318e0c16d5f8d61bfe3fbebf48c75dafbcfe769be4cb4ab2234a69954",
	"thesis41":              "4cc4754171e37b976c8e1995570cbf0d9637e5b46eac1a73117467f7b097380c",
	"thesis42":              "c68a104776558b9fd3808a7b9deb0ff37846ff8b821fcf10f24102c0f5d5757c",
	"reading":               "240d2c6278f31aeaef77dab8017d8d5113257847df56eeef64ca974461ef1846",
	"winners":               "382fc5c61f28a717c744ca5646ba15c00612c66dfbb9b7854cd59204fc42c7de",
	"acceptance":            "c42bde0810a938c0865036364d5222d4e1d40611f05dd147467aaaae5c722d2d",
	"ablation-features":     "14025865369b0a30acddfb01ce8778402612dd04b9c741ac6a9b427af2a62948",
	"ablation-settings":     "5332fc89d281da54b3cd129261debf2fada8f47cbfc17958a7f8ccf9c692c3bf",
	"cluster-modes":         "f9f3e66a9376cb54c8d0c12bbcfb702664ef10d8e207ab13068398dd0e6f27a9",
	"ablation-reading":      "a769024beaae06a982b0b2105a31a30cc5b0feb05b38e86cfd2de1a59cd060ca",
	"availability-readings": "cd1d2db73a5e544f367f42d60e77ad6e2d317b60285f716143c3f917d44dc9fe",
	"availability-answers":  "b84b3a55a856f10fe0fbb24b9398592a5898eec5a6f9d01b6218959051417842",
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
		m, err := measure(dir, 1000, readmeConfigs(), io.Discard, nil)
		if err != nil {
			t.Fatal(err)
		}
		out := readmeTables(m)
		a, err := runAblation(dir, nil, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		for name, text := range a.regions() {
			out[name] = text
		}
		av, err := availabilityRegions(dir, nil, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		for name, text := range av {
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
		if code := command(c.args, &out, &errb); code != 0 {
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
	rows, err := scoreLog(filepath.Join(dir, tracetest.KTH), replay.Config{}, false)
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

// TestReadmeSliceSP2 is the CI slice of TestReadmeTables (BATCHQ_LONG=1;
// CI runs it with -run): one log of eight, SDSC-SP2, through the command
// (Tables 4.1 and 4.2 with each clustering, as TestReadmeKTH does for
// KTH), runAblation (13 replays of the whole log, one set of six) and
// availabilityRegions (14 replays). Its rows of Tables 4.1 and 4.2, of the
// three ablation tables and of the availability-answers table must be the
// README's lines as printed, and its column of the availability-readings
// table the README's cells (the regions themselves are pinned by their
// digests).
func TestReadmeSliceSP2(t *testing.T) {
	if !readme.Long() {
		t.Skipf("27 BM replays of SDSC-SP2: set %s=1", readme.LongEnv)
	}
	dir := allTraces(t)
	a, err := runAblation(dir, []string{"SDSC-SP2"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	av, err := availabilityRegions(dir, []string{tracetest.SDSCSP2}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	region := func(name string) string {
		text, err := readme.Region(doc, name)
		if err != nil {
			t.Fatal(err)
		}
		return string(text)
	}
	rows := map[string]string{"availability-answers": rowOf(t, string(av["availability-answers"]), "| SDSC-SP2 |")}
	for name, row := range map[string]func(io.Writer, string){"ablation-features": a.featuresRow, "ablation-settings": a.settingsRow, "cluster-modes": a.modesRow} {
		var b bytes.Buffer
		row(&b, "SDSC-SP2")
		rows[name] = b.String()
	}
	for name, row := range rows {
		if !strings.Contains(region(name), row) {
			t.Errorf("README.md region %s lacks the recomputed row\n%s", name, row)
		}
	}
	// Tables 4.1 and 4.2 as the command prints them, with each
	// clustering, as TestReadmeKTH runs them on KTH.
	one := tracetest.DirOf(t, tracetest.SDSCSP2)
	for _, c := range []struct {
		args  []string
		qbets string // the region of its Table 4.2 rows
	}{{[]string{"-traces", one}, "table42"}, {[]string{"-cluster", "two-level", "-traces", one}, "table42-twolevel"}} {
		var out, errb strings.Builder
		if code := command(c.args, &out, &errb); code != 0 {
			t.Fatalf("%v: exit %d: %s", c.args, code, errb.String())
		}
		name, n := "", 0
		for l := range strings.Lines(out.String()) {
			switch {
			case strings.HasPrefix(l, "### plain (Table 4.1)"):
				name = "table41"
			case strings.HasPrefix(l, "### QBETS (Table 4.2)"):
				name = c.qbets
			case strings.HasPrefix(l, "### "):
				name = ""
			case name != "" && strings.HasPrefix(l, "| SDSC-SP2-1998-4.2-cln/"):
				n++
				if !strings.Contains(region(name), l) {
					t.Errorf("README.md region %s lacks SDSC-SP2's row as the command prints it (%v):\n%s", name, c.args, l)
				}
			}
		}
		if n != 10 {
			t.Errorf("%v: %d SDSC-SP2 rows of Tables 4.1 and 4.2, want 10 (five queues each):\n%s", c.args, n, out.String())
		}
	}
	// The readings table has a column per log: SDSC-SP2's is the third.
	col := slices.Index(readingLogs, tracetest.SDSCSP2)
	want := region("availability-readings")
	n := 0
	for l := range strings.Lines(string(av["availability-readings"])) {
		cells := tableCells(l)
		if len(cells) != 2 || strings.HasPrefix(l, "| reading |") || strings.HasPrefix(l, "|---") || strings.HasPrefix(l, "| thesis") {
			continue
		}
		n++
		in := tableCells(rowOf(t, want, "| "+cells[0]+" |"))
		if got := in[1+col]; got != cells[1] {
			t.Errorf("README.md region availability-readings, row %q, SDSC-SP2: README %q, recomputed %q", cells[0], got, cells[1])
		}
	}
	if n != len(readings) {
		t.Errorf("%d rows of availability-readings recomputed, want %d", n, len(readings))
	}
}

// tableCells are the cells of a Markdown table row, trimmed.
func tableCells(row string) []string {
	cells := strings.Split(strings.Trim(strings.TrimSpace(row), "|"), "|")
	for i, c := range cells {
		cells[i] = strings.TrimSpace(c)
	}
	return cells
}

// rowOf is the one line of text that starts with prefix.
func rowOf(t *testing.T, text, prefix string) string {
	t.Helper()
	var found []string
	for l := range strings.Lines(text) {
		if strings.HasPrefix(l, prefix) {
			found = append(found, l)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%d lines start with %q in\n%s", len(found), prefix, text)
	}
	return found[0]
}

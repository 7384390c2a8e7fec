package main

import (
	"bufio"
	"compress/gzip"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/batchq/batchq/internal/jobid"
	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/swf"
)

// unnumbered writes a copy of the shared trace name into a new directory,
// under the same name, with field 1 of the n-th job line rewritten by
// id(n, number) (-1: every job without a number), and returns the
// directory.
func unnumbered(t *testing.T, name string, id func(n int, number string) string) string {
	t.Helper()
	f, err := os.Open(tracetest.Path(t, name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var b strings.Builder
	sc := bufio.NewScanner(z)
	sc.Buffer(nil, 1<<20)
	n := 0
	for sc.Scan() {
		line := sc.Text()
		if fs := strings.Fields(line); len(fs) == swf.NumFields && !strings.HasPrefix(line, ";") {
			n++
			fs[0] = id(n, fs[0])
			line = strings.Join(fs, " ")
		}
		b.WriteString(line + "\n")
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// The butterfly on a copy of SDSC-SP2 whose every job number is -1 gives
// the original's figures (and one numbered in part those of the copy
// numbered as sched numbers it): job 64241 is the job of its line, and the
// injected flurry's jobs are numbered above the made-up numbers (the -1s
// made them 0, 1, …, and the cut failed: "job 64241 not in the log").
func TestButterflyWithoutNumbers(t *testing.T) {
	if testing.Short() {
		t.Skip("eight EASY simulations of SDSC-SP2 (about 10 s of CPU)")
	}
	ctx := context.Background()
	run := func(dir string) (base, cut bsld, changed int, row butterflyRow, notes *logNotes) {
		t.Helper()
		notes = &logNotes{}
		jobs, key, err := readButterfly(dir, notes)
		if err != nil {
			t.Fatal(err)
		}
		var maxH float64
		if base, cut, changed, maxH, err = pair(ctx, jobs, key, nil); err != nil {
			t.Fatal(err)
		}
		if row, err = butterflyRun(ctx, jobs, key, 18); err != nil {
			t.Fatal(err)
		}
		_ = maxH
		return base, cut, changed, row, notes
	}
	strip := func(b *bsld) { b.starts = nil }
	// mixed leaves a line in three its number, the butterfly job's too;
	// sched orders jobs of one submit time by number, and a made-up one
	// comes after every real one, so that this copy is the log numbered
	// as sched numbers it, 10^18 + line (madeUp), not the original.
	mixed := func(n int, number string) string {
		if n == butterflyLine {
			return number
		}
		return []string{number, "-1", "0"}[n%3]
	}
	madeUp := func(n int, number string) string {
		if mixed(n, number) != number {
			return strconv.FormatInt(jobid.MadeUp(int64(n)), 10)
		}
		return number
	}
	orig := filepath.Dir(tracetest.Path(t, tracetest.SDSCSP2))
	for _, c := range []struct {
		name      string
		id, refID func(n int, number string) string // refID nil: the original
	}{
		{"all -1", func(int, string) string { return "-1" }, nil},
		{"mixed -1, 0 and numbers", mixed, madeUp},
	} {
		ref := orig
		if c.refID != nil {
			ref = unnumbered(t, tracetest.SDSCSP2, c.refID)
		}
		base, cut, changed, row, _ := run(ref)
		if row.removedInjected != 375 || changed == 0 {
			t.Errorf("vacuous: %d injected jobs removed, %d moved", row.removedInjected, changed)
		}
		b, k, ch, r, notes := run(unnumbered(t, tracetest.SDSCSP2, c.id))
		for _, x := range []*bsld{&base, &cut, &b, &k, &row.with, &row.withCut, &row.removed, &row.removedCut, &r.with, &r.withCut, &r.removed, &r.removedCut} {
			strip(x)
		}
		if !reflect.DeepEqual([]any{b, k, ch, r}, []any{base, cut, changed, row}) {
			t.Errorf("%s: base %+v cut %+v moved %d, +18 h %+v;\nwant %+v %+v %d, %+v", c.name, b, k, ch, r, base, cut, changed, row)
		}
		if notes.of(tracetest.SDSCSP2).madeUp == 0 {
			t.Errorf("%s: the jobs numbered are not noted", c.name)
		}
	}
}

// Detection quality on a copy of KTH-SP2 numbered -1 throughout, or -1, 0
// and numbers in turn, is the original's.
func TestInjectWithoutNumbers(t *testing.T) {
	if testing.Short() {
		t.Skip("30 injections into KTH-SP2 per copy")
	}
	rows := func(dir string) []injectRow {
		t.Helper()
		jobs, err := load(dir, tracetest.KTH, false, nil)
		if err != nil {
			t.Fatal(err)
		}
		r, err := injectLog("KTH", jobs, []shape{flurry375, multiWeek(2)}, setup{}.det)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	want := rows(filepath.Dir(tracetest.Path(t, tracetest.KTH)))
	for name, id := range map[string]func(int, string) string{
		"all -1": func(int, string) string { return "-1" },
		"mixed":  func(n int, number string) string { return []string{number, "-1", "0"}[n%3] },
	} {
		got := rows(unnumbered(t, tracetest.KTH, id))
		if len(got) != len(want) {
			t.Fatalf("%s: %d rows, want %d", name, len(got), len(want))
		}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("%s: %+v, want %+v", name, got[i], want[i])
			}
		}
	}
}

// Hostile numbers neither panic nor lose a job: a log of -1s, of -1, 0
// and numbers, with a number repeated, and with a real 10^18 + 1 or
// 2^63 − 1 (no room above it for the flurry: an error that says so).
func TestInjectHostileNumbers(t *testing.T) {
	const n = 4000
	base := make([]swf.Job, n)
	for i := range base {
		j := swf.NewJob()
		j.ID, j.Submit, j.RunTime, j.AllocProcs, j.ReqProcs, j.ReqTime = int64(i+1), int64(i)*900, 600, 4, 4, 1800
		j.User, j.Status = int64(1+i%20), swf.StatusCompleted
		base[i] = j
	}
	dir := t.TempDir()
	for _, c := range []struct {
		name string
		id   func(i int) int64
		err  string
	}{
		{"numbered", func(i int) int64 { return int64(i + 1) }, ""},
		{"all -1", func(int) int64 { return -1 }, ""},
		{"mixed", func(i int) int64 { return []int64{int64(i + 1), -1, 0}[i%3] }, ""},
		{"duplicates", func(i int) int64 { return int64(i/2 + 1) }, ""},
		{"10^18 + 1 and -1s", func(i int) int64 { return []int64{jobid.MadeUp(1), -1}[min(i, 1)] }, ""},
		{"2^63 − 1", func(i int) int64 { return []int64{1<<63 - 1, int64(i + 1)}[min(i, 1)] }, "no room for 375 injected jobs"},
	} {
		var b strings.Builder
		b.WriteString("; MaxProcs: 64\n")
		for i, j := range base {
			j.ID = c.id(i)
			line, err := j.AppendText(nil)
			if err != nil {
				t.Fatal(err)
			}
			b.Write(append(line, '\n'))
		}
		name := strconv.Itoa(len(c.name)) + ".swf"
		if err := os.WriteFile(filepath.Join(dir, name), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		jobs, err := load(dir, name, false, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(jobs) != n {
			t.Errorf("%s: %d jobs loaded, want %d", c.name, len(jobs), n)
		}
		rows, err := injectLog(c.name, jobs, []shape{flurry375}, setup{}.det)
		switch {
		case c.err != "":
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: %v, want an error with %q", c.name, err, c.err)
			}
		case err != nil:
			t.Errorf("%s: %v", c.name, err)
		case rows[0].sc.trials != 10 || rows[0].sc.right != 10:
			t.Errorf("%s: %+v, want the 10 injections found", c.name, rows[0].sc)
		}
	}
}

// The butterfly on a copy of SDSC-SP2 with a number repeated leaves the
// later job out, noted with the jobs the simulator rejects (it rejected
// the later job only while the first was live, said nothing, and keyed
// the starts compared by number).
func TestButterflyDuplicateNoted(t *testing.T) {
	if testing.Short() {
		t.Skip("two EASY simulations of SDSC-SP2")
	}
	var prev string
	dir := unnumbered(t, tracetest.SDSCSP2, func(n int, number string) string {
		if n == 10 {
			return prev
		}
		prev = number
		return number
	})
	notes := &logNotes{}
	jobs, key, err := readButterfly(dir, notes)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, _, _, err := pair(context.Background(), jobs, key, nil); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	notes.write(&b)
	if !strings.Contains(b.String(), "butterfly: jobs left out: 1 duplicate ID") {
		t.Errorf("notes %q lack the duplicate", b.String())
	}
	if got := notes.json()[tracetest.SDSCSP2].ButterflyRejected; got["duplicate_id"] != 1 {
		t.Errorf("-json's butterfly_rejected %v lacks the duplicate", got)
	}
}

package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/cli"
	"github.com/batchq/batchq/examples/internal/cli/clitest"
	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// small is a hand-written trace for a machine of 8 processors: 12 lines,
// of which job 5 (no run time) and job 6 (16 processors) are not sane,
// job 7 runs 2.5 times its estimate and job 9 has no estimate.
const small = `; Version: 2.2
; Computer: a test machine
; MaxProcs: 8
; UnixStartTime: 1000000000
   1     0  5  100  4 -1 -1  4  200 -1 1 1 1 -1 -1 -1 -1 -1
   2    10  0   50  4 -1 -1  4  100 -1 1 2 1 -1 -1 -1 -1 -1
   3    20  0  300  8 -1 -1  8  400 -1 1 1 1 -1 -1 -1 -1 -1
   4    30  0   20  2 -1 -1  2   40 -1 1 3 1 -1 -1 -1 -1 -1
   5    40  0   -1  2 -1 -1  2   60 -1 5 3 1 -1 -1 -1 -1 -1
   6    50  0   10 16 -1 -1 16   60 -1 1 2 1 -1 -1 -1 -1 -1
   7    60  0   50  1 -1 -1  1   20 -1 1 2 1 -1 -1 -1 -1 -1
   8    70  0  100  6 -1 -1  6  150 -1 1 1 1 -1 -1 -1 -1 -1
   9    80  0   40  2 -1 -1  2   -1 -1 1 4 1 -1 -1 -1 -1 -1
  10   400  0   60  3 -1 -1  3   90 -1 1 3 1 -1 -1 -1 -1 -1
  11   410  0   10  5 -1 -1  5   30 -1 1 1 1 -1 -1 -1 -1 -1
  12   900  0   30  8 -1 -1  8   60 -1 1 2 1 -1 -1 -1 -1 -1
`

const smallLines, smallSane = 12, 10

// writeTrace writes text to dir/name, gzip-compressed if name ends in .gz.
func writeTrace(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	var data []byte
	if strings.HasSuffix(name, ".gz") {
		var b bytes.Buffer
		zw := gzip.NewWriter(&b)
		zw.Write([]byte(text))
		zw.Close()
		data = b.Bytes()
	} else {
		data = []byte(text)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// runCmd runs the command in-process and returns its exit code, stdout and
// stderr.
func runCmd(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	return runIn(t, "", args...)
}

func runIn(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := runContext(context.Background(), args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func runJSON(t *testing.T, args ...string) map[string]any {
	t.Helper()
	code, out, errs := runCmd(t, append(args, "-json")...)
	if code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, errs)
	}
	var m map[string]any
	dec := json.NewDecoder(strings.NewReader(out))
	if err := dec.Decode(&m); err != nil {
		t.Fatalf("%v: not JSON: %v\n%s", args, err, out)
	}
	if dec.More() {
		t.Fatalf("%v: more than one JSON value:\n%s", args, out)
	}
	return m
}

// reference simulates the small trace with sched.Run.
func reference(t *testing.T, path string, cfg sched.Config) *sched.Result {
	t.Helper()
	_, jobs, err := swf.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	res, err := sched.Run(context.Background(), cfg, jobs)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestText(t *testing.T) {
	p := writeTrace(t, t.TempDir(), "small.swf", small)
	code, out, errs := runCmd(t, p)
	if code != 0 || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	for _, re := range []string{
		`(?m)^trace +small\.swf$`,
		`(?m)^policy +EASY: EASY backfilling`,
		`(?m)^machine +8 processors \(header MaxProcs\)$`,
		`(?m)^jobs read +12$`,
		`(?m)^simulated +10$`,
		`(?m)^rejected +2$`,
		`(?m)^  no run time +1$`,
		`(?m)^  larger than machine +1$`,
		`(?m)^warning +1 jobs ran more than twice their estimate.*consider -kill$`,
		`(?m)^mean wait +\d+ s \(\d+\.\d min\)$`,
		`(?m)^mean bsld +\d+\.\d\d`,
		`(?m)^mean slowdown +\d+\.\d\d$`,
		`(?m)^utilization +0\.\d\d\d`,
		`(?m)^backfill rate +\d\.\d\d\d$`,
		`(?m)^accuracy +\d\.\d\d\d`,
		`(?m)^averaged +\d+ jobs \(S7: \d+ excluded`,
		`(?m)^cancelled +0$`,
		`(?m)^killed +0 `,
		`(?m)^overran +1 `,
		`(?m)^estimates filled +1 `,
		`(?m)^wall time +\d+\.\d\d s`,
	} {
		if !regexp.MustCompile(re).MatchString(out) {
			t.Errorf("output lacks %s:\n%s", re, out)
		}
	}
	ref := reference(t, p, sched.EASY(8))
	if want := regexp.MustCompile(`(?m)^mean wait +` + fmt.Sprintf("%.0f", ref.Summary.MeanWait) + ` s`); !want.MatchString(out) {
		t.Errorf("mean wait differs from sched.Run's %.1f s:\n%s", ref.Summary.MeanWait, out)
	}
}

func TestJSON(t *testing.T) {
	p := writeTrace(t, t.TempDir(), "small.swf", small)
	m := runJSON(t, "-policy", "easy++", p)
	for _, k := range []string{"trace", "policy", "machine", "machine_from", "options", "jobs_read", "jobs_simulated",
		"jobs_rejected", "rejected", "reader", "warnings", "mean_wait_s", "mean_wait_min", "mean_response_s",
		"mean_bsld", "mean_slowdown", "utilization", "backfill_rate", "accuracy", "jobs_averaged",
		"jobs_excluded", "jobs_completed", "cancelled", "killed", "overran", "estimates_filled",
		"wall_time_s", "version"} {
		if _, ok := m[k]; !ok {
			t.Errorf("JSON lacks %q", k)
		}
	}
	if m["policy"] != "EASY++" || m["machine"] != 8.0 || m["jobs_read"] != float64(smallLines) ||
		m["jobs_simulated"] != float64(smallSane) || m["jobs_rejected"] != 2.0 {
		t.Errorf("policy, machine or job counts wrong: %v", m)
	}
	rej, _ := m["rejected"].(map[string]any)
	if len(rej) != 2 || rej["no_run_time"] != 1.0 || rej["larger_than_machine"] != 1.0 {
		t.Errorf("rejected = %v", m["rejected"])
	}
	easypp, _ := sched.LookupPreset("EASY++")
	ref := reference(t, p, easypp.New(8))
	s := ref.Summary
	for k, v := range map[string]float64{"mean_wait_s": s.MeanWait, "mean_bsld": s.MeanBSLD, "utilization": s.Utilization,
		"mean_slowdown": s.MeanSlowdown, "backfill_rate": s.BackfillRate, "accuracy": s.Accuracy,
		"jobs_averaged": float64(s.Included), "overran": float64(s.Overran)} {
		if m[k] != v {
			t.Errorf("%s = %v, sched.Run gives %v", k, m[k], v)
		}
	}
}

// TestFlagsAfterTrace: flags may follow the trace, or surround it.
func TestFlagsAfterTrace(t *testing.T) {
	p := writeTrace(t, t.TempDir(), "small.swf", small)
	m := runJSON(t, p, "-policy", "sjf")
	if m["policy"] != "SJF" {
		t.Errorf("policy %v, want SJF", m["policy"])
	}
	m = runJSON(t, "-policy", "LXFW", p, "-machine", "10", "-kill")
	opts := m["options"].(map[string]any)
	if m["policy"] != "LXF&W" || m["machine"] != 10.0 || m["machine_from"] != "-machine" || opts["kill"] != true {
		t.Errorf("flags around the trace not all applied: %v", m)
	}
	if m["overran"] != 0.0 || m["killed"] != 1.0 {
		t.Errorf("-kill: overran %v killed %v, want 0 and 1", m["overran"], m["killed"])
	}
	// After "--" everything is a trace name, even if it looks like a flag.
	code, _, errs := runCmd(t, "--", p, "-json")
	if code != 2 || !strings.Contains(errs, "one TRACE expected") {
		t.Errorf("-- then two arguments: exit %d, %q", code, errs)
	}
}

func TestList(t *testing.T) {
	code, out, _ := runCmd(t, "-list")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, p := range sched.Presets() {
		if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(p.Name) + ` +` + regexp.QuoteMeta(p.Doc) + `$`).MatchString(out) {
			t.Errorf("-list lacks %s: %s", p.Name, p.Doc)
		}
	}
	code, out, _ = runCmd(t, "-list", "-json")
	var list []struct{ Name, Doc string }
	if err := json.Unmarshal([]byte(out), &list); code != 0 || err != nil || len(list) != len(sched.Presets()) {
		t.Errorf("-list -json: exit %d, %v, %d entries", code, err, len(list))
	}
}

// TestUsageErrors: bad command lines exit 2 with one line on stderr.
func TestUsageErrors(t *testing.T) {
	p := writeTrace(t, t.TempDir(), "small.swf", small)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-policy", "nope", p}, `unknown policy "nope"`},
		{[]string{p, "-policy", "nope"}, `unknown policy "nope"`},
		{[]string{}, "missing TRACE"},
		{[]string{"-json"}, "missing TRACE"},
		{[]string{"-bogus", p}, "-bogus"},
		{[]string{p, "-compat", "slurm"}, `-compat "slurm"`},
		{[]string{"-machine", "-3", p}, "-machine -3"},
		{[]string{"-machine", "x", p}, "-machine"},
		{[]string{p, p}, "one TRACE expected"},
		// (was exit 1 after the trace was read: sched's "Nodes with a Peer mode")
		{[]string{"-compat", "pyss", "-nodes", p, p}, "-compat pyss and -nodes"},
		{[]string{p, "-nodes", p, "-compat", "predictsim"}, "-compat predictsim and -nodes"},
	} {
		code, out, errs := runCmd(t, c.args...)
		if code != 2 || out != "" || !strings.Contains(errs, c.want) || strings.Count(errs, "\n") != 1 ||
			!strings.HasPrefix(errs, "simulate: ") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want 2 and one line with %q", c.args, code, out, errs, c.want)
		}
	}
	if code, out, _ := runCmd(t, "-help"); code != 0 || !strings.Contains(out, "-policy") {
		t.Errorf("-help: exit %d, %q", code, out)
	}
}

// TestRunErrors: unreadable, malformed or unusable input exits 1 with one
// line on stderr naming the file.
func TestRunErrors(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.swf")
	noHeader := writeTrace(t, dir, "noheader.swf", small[strings.Index(small, "   1 "):])
	bad := writeTrace(t, dir, "bad.swf", strings.Replace(small, " 300 ", " 3x0 ", 1))
	corrupt := writeTrace(t, dir, "corrupt.swf.gz", small)
	data, _ := os.ReadFile(corrupt)
	data[len(data)/2] ^= 0xff // corrupt the deflate stream
	os.WriteFile(corrupt, data, 0o644)
	truncated := writeTrace(t, dir, "truncated.swf.gz", small)
	data, _ = os.ReadFile(truncated)
	os.WriteFile(truncated, data[:len(data)-12], 0o644)
	tiny := writeTrace(t, dir, "tiny.swf.gz", small)
	data, _ = os.ReadFile(tiny)
	os.WriteFile(tiny, data[:5], 0o644) // a cut gzip header
	empty := writeTrace(t, dir, "empty.swf", "; MaxProcs: 8\n")
	// A damaged gzip whose garbage is a malformed line before the checksum
	// fails: the checksum's error leads, the line follows (streamed file
	// and standard input alike).
	crc := writeTrace(t, dir, "crc.swf.gz", strings.Replace(small, " 300 ", " 3x0 ", 1))
	data, _ = os.ReadFile(crc)
	data[len(data)-8] ^= 0xff
	os.WriteFile(crc, data, 0o644)
	for _, stdin := range []bool{false, true} {
		args, in := []string{crc}, ""
		if stdin {
			args, in = []string{"-"}, string(data)
		}
		code, _, errs := runIn(t, in, args...)
		if i := strings.Index(errs, "gzip data corrupt"); code != 1 || i < 0 || !strings.Contains(errs[i:], "line 7") {
			t.Errorf("damaged gzip with a bad line (stdin %v): exit %d, stderr %q; want the gzip error, then line 7", stdin, code, errs)
		}
	}
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{missing}, []string{missing, "no such file"}},
		{[]string{noHeader}, []string{"noheader.swf", "machine size unknown", "pass -machine"}},
		{[]string{bad}, []string{"bad.swf", "line 7", "run time"}},
		{[]string{corrupt}, []string{"corrupt.swf.gz"}},
		{[]string{truncated}, []string{"truncated.swf.gz", "EOF"}},
		{[]string{tiny}, []string{"tiny.swf.gz", "gzip data truncated"}},
		{[]string{empty}, []string{"empty.swf", "no job lines"}},
		{[]string{"-out", filepath.Join(dir, "no", "such", "dir.swf"), noHeader, "-machine", "8"}, []string{"dir.swf"}},
	} {
		code, out, errs := runCmd(t, c.args...)
		ok := code == 1 && out == "" && strings.Count(errs, "\n") == 1
		for _, w := range c.want {
			ok = ok && strings.Contains(errs, w)
		}
		if !ok {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want 1 and one line with %q", c.args, code, out, errs, c.want)
		}
	}
	// The missing machine size is supplied by -machine; a malformed line
	// is skipped with -lenient and reported.
	if m := runJSON(t, noHeader, "-machine", "8"); m["jobs_simulated"] != float64(smallSane) || m["machine_from"] != "-machine" {
		t.Errorf("-machine 8: %v", m)
	}
	m := runJSON(t, bad, "-lenient")
	reader := m["reader"].(map[string]any)
	if m["jobs_read"] != float64(smallLines-1) || reader["skipped"] != 1.0 || len(reader["errors"].([]any)) != 1 {
		t.Errorf("-lenient: %v", m)
	}
	if ws := m["warnings"].([]any); len(ws) == 0 || !strings.Contains(ws[0].(string), "skipped 1 malformed line") {
		t.Errorf("-lenient warnings: %v", ws)
	}
}

// TestOutRoundTrip: the -out schedule holds every simulated job, with its
// number and its simulated wait, under a header that says it is a
// simulation; -jobs-out has one row per simulated job.
func TestOutRoundTrip(t *testing.T) {
	dir := t.TempDir()
	p := writeTrace(t, dir, "small.swf", small)
	out, csvOut := filepath.Join(dir, "sched.swf"), filepath.Join(dir, "jobs.csv")
	if code, _, errs := runCmd(t, p, "-policy", "conservative", "-out", out, "-jobs-out", csvOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	cons, _ := sched.LookupPreset("Conservative")
	ref := reference(t, p, cons.New(8))
	checkSchedule(t, out, ref, "Conservative", "8 processors", "small.swf")
	checkCSV(t, csvOut, ref)
}

func checkSchedule(t *testing.T, path string, ref *sched.Result, want ...string) {
	t.Helper()
	h, jobs, err := swf.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(jobs) != len(ref.Records) {
		t.Fatalf("%s: %d jobs, want every one of the %d simulated", path, len(jobs), len(ref.Records))
	}
	for i, j := range jobs {
		r := ref.Records[i]
		if j.ID != r.Job.ID || j.Wait != r.Wait || j.Submit != r.Job.Submit || j.RunTime != r.Job.RunTime {
			t.Errorf("%s: job %d wait %d, sched.Run: job %d wait %d", path, j.ID, j.Wait, r.Job.ID, r.Wait)
		}
	}
	if n, err := h.MachineSize(); err != nil || n != 8 || h.MaxRecords != int64(len(jobs)) {
		t.Errorf("header: machine %d (%v), MaxRecords %d", n, err, h.MaxRecords)
	}
	notes := strings.Join(h.Note, "\n")
	for _, w := range append([]string{"SIMULATED SCHEDULE", "options: compat none", "source trace"}, want...) {
		if !strings.Contains(notes, w) {
			t.Errorf("header notes lack %q:\n%s", w, notes)
		}
	}
	if !strings.Contains(h.Conversion, "github.com/batchq/batchq") {
		t.Errorf("Conversion %q lacks the module", h.Conversion)
	}
}

func checkCSV(t *testing.T, path string, ref *sched.Result) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var r *csv.Reader
	if strings.HasSuffix(path, ".gz") {
		zr, err := gzip.NewReader(f)
		if err != nil {
			t.Fatal(err)
		}
		r = csv.NewReader(zr)
	} else {
		r = csv.NewReader(bufio.NewReader(f))
	}
	rows, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(ref.Records)+1 || strings.Join(rows[0], ",") != strings.Join(csvHeader, ",") {
		t.Fatalf("%s: %d rows, header %v", path, len(rows), rows[0])
	}
	for i, rec := range ref.Records {
		row := rows[i+1]
		if row[0] != itoa(rec.Job.ID) || row[2] != itoa(rec.Wait) || row[3] != itoa(rec.Start) || row[4] != itoa(rec.End) ||
			row[11] != boolStr(rec.Included) {
			t.Errorf("%s row %d: %v, record %+v", path, i+1, row, rec)
		}
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
func boolStr(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

// TestGzip: gzip input (detected by content) and .gz outputs.
func TestGzip(t *testing.T) {
	dir := t.TempDir()
	p := writeTrace(t, dir, "small.swf.gz", small)
	plain := writeTrace(t, dir, "small.swf", small)
	out, csvOut := filepath.Join(dir, "sched.swf.gz"), filepath.Join(dir, "jobs.csv.gz")
	if code, _, errs := runCmd(t, p, "-out", out, "-jobs-out", csvOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, f := range []string{out, csvOut} {
		if data, _ := os.ReadFile(f); len(data) < 2 || data[0] != 0x1f || data[1] != 0x8b {
			t.Errorf("%s is not gzip", f)
		}
	}
	ref := reference(t, plain, sched.EASY(8))
	checkSchedule(t, out, ref, "EASY")
	checkCSV(t, csvOut, ref)
}

// TestStdin: "-" reads standard input, plain or gzip.
func TestStdin(t *testing.T) {
	dir := t.TempDir()
	gz := writeTrace(t, dir, "small.swf.gz", small)
	zdata, _ := os.ReadFile(gz)
	for _, in := range []string{small, string(zdata)} {
		code, out, errs := runIn(t, in, "-", "-json")
		var m map[string]any
		if code != 0 || json.Unmarshal([]byte(out), &m) != nil || m["jobs_read"] != float64(smallLines) ||
			m["trace"] != "standard input" {
			t.Errorf("stdin: exit %d, %s, %s", code, errs, out)
		}
	}
}

// TestCompat: -compat sets the peer's job construction and options; the
// single options add to it.
func TestCompat(t *testing.T) {
	p := writeTrace(t, t.TempDir(), "small.swf", small)
	m := runJSON(t, p, "-compat", "pyss", "-policy", "easy")
	opts := m["options"].(map[string]any)
	if opts["compat"] != "pyss" || opts["per_event"] != true || opts["ties"] != true || opts["kill"] != false {
		t.Errorf("-compat pyss options %v", opts)
	}
	// pyss simulates every line that has a submit time.
	if m["jobs_simulated"] != float64(smallLines) || m["jobs_rejected"] != 0.0 {
		t.Errorf("-compat pyss simulated %v, rejected %v", m["jobs_simulated"], m["jobs_rejected"])
	}
	ref := reference(t, p, sched.EASY(8).WithPeer(sched.PeerPyss))
	if m["mean_wait_s"] != ref.Summary.MeanWait {
		t.Errorf("-compat pyss mean wait %v, sched.Run %v", m["mean_wait_s"], ref.Summary.MeanWait)
	}
	m = runJSON(t, p, "-compat", "PredictSim", "-per-event")
	opts = m["options"].(map[string]any)
	if opts["compat"] != "predictsim" || opts["per_event"] != true || opts["ties"] != true {
		t.Errorf("-compat predictsim -per-event options %v", opts)
	}
	m = runJSON(t, p, "-ties", "-per-event")
	opts = m["options"].(map[string]any)
	if opts["compat"] != "none" || opts["per_event"] != true || opts["ties"] != true {
		t.Errorf("-ties -per-event options %v", opts)
	}
}

// TestKTH: on a real trace the command's EASY mean wait is sched.Run's, and
// the README's example output is what the command prints (but the times).
func TestKTH(t *testing.T) {
	p := tracetest.Path(t, tracetest.KTH)
	m := runJSON(t, p, "-policy", "easy")
	ref := reference(t, p, sched.EASY(100))
	if m["mean_wait_s"] != ref.Summary.MeanWait || m["mean_bsld"] != ref.Summary.MeanBSLD {
		t.Errorf("KTH EASY: mean wait %v bsld %v, sched.Run %v %v", m["mean_wait_s"], m["mean_bsld"],
			ref.Summary.MeanWait, ref.Summary.MeanBSLD)
	}

	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	cmdRe := regexp.MustCompile("(?s)\\$ go run \\./examples/simulate ([^\\n]*)\\n(.*?)\\n```")
	sub := cmdRe.FindSubmatch(readme)
	if sub == nil {
		t.Fatal("README.md has no example run")
	}
	var args []string
	for _, a := range strings.Fields(string(sub[1])) {
		if strings.HasSuffix(a, tracetest.KTH) {
			a = p
		}
		args = append(args, a)
	}
	code, out, errs := runCmd(t, args...)
	if code != 0 {
		t.Fatalf("README command %q: exit %d: %s", args, code, errs)
	}
	if got, want := dropTimes(out), dropTimes(string(sub[2])); got != want {
		t.Errorf("README example output is stale; the command %q now prints:\n%s", args, out)
	}
}

// dropTimes removes the wall-time line, which varies between runs.
func dropTimes(s string) string {
	var keep []string
	for _, l := range strings.Split(strings.TrimSpace(s), "\n") {
		if !strings.HasPrefix(l, "wall time") {
			keep = append(keep, strings.TrimRight(l, " "))
		}
	}
	return strings.Join(keep, "\n")
}

// A real log's oddities (header N/A, statuses -2 and -4, unknown submits,
// CR-only line ends) are read, simulated and reported, never fatal.
func TestOddLog(t *testing.T) {
	dir := t.TempDir()
	odd := writeTrace(t, dir, "odd.swf", "; MaxProcs: 8\r; MaxRuntime: N/A\r"+
		"1 0 0 10 2 -1 -1 2 20 -1 -2 1 1 -1 -1 -1 -1 -1\r"+
		"2 5 0 10 2 -1 -1 2 20 -1 -4 1 1 -1 -1 -1 -1 -1\r"+
		"3 -1 0 10 2 -1 -1 2 20 -1 1 1 1 -1 -1 -1 -1 -1\r")
	code, out, errOut := runCmd(t, odd)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"jobs read         3", "simulated         2", "no submit time  1",
		"MaxRuntime", "-4: 1, -2: 1", "1 job lines with an unknown submit time"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestCLI(t *testing.T) {
	dir := t.TempDir()
	trace := writeTrace(t, dir, "small.swf", small)
	missing := filepath.Join(dir, "nope.swf")
	clitest.Run(t, clitest.Command{Run: runContext, JSON: []string{trace, "-json"}, Missing: []string{missing}, File: missing,
		Empty: func(p string) []string { return []string{p} }, Machine: []string{"t.swf"}})
}

// TestNoTrace: no trace is a usage error whose line points to the help
// once ("(usage: simulate [flags] TRACE; -help for the flags) (-h for
// help)" did twice).
func TestNoTrace(t *testing.T) {
	r := clitest.Exec(runContext, "")
	if r.Code != cli.ExitUsage || !strings.Contains(r.Stderr, "missing TRACE") || strings.Count(r.Stderr, "help") != 1 {
		t.Errorf("exit %d, stderr %q; want %d, missing TRACE and one help hint", r.Code, r.Stderr, cli.ExitUsage)
	}
}

// -list prints the presets and exits: a trace or another flag given with
// it was dropped without a word (exit 0), as if it had run.
func TestListRefusesOthers(t *testing.T) {
	p := writeTrace(t, t.TempDir(), "small.swf", small)
	for _, args := range [][]string{
		{"-list", p}, {"-list", "-policy", "sjbf"}, {"-list", "-machine", "64"}, {"-out", "x.swf", "-list"},
	} {
		code, out, errs := runCmd(t, args...)
		if code != 2 || out != "" || !strings.Contains(errs, "-list") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want 2 and -list named", args, code, out, errs)
		}
	}
	if code, _, errs := runCmd(t, "-json", "-list"); code != 0 {
		t.Errorf("-json -list: exit %d, %q", code, errs)
	}
}

package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/readme"
	"github.com/batchq/batchq/swf"
	"github.com/batchq/batchq/swf/convert"
)

const testdata = "../../swf/convert/testdata/"

func runCmd(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func readSWF(t *testing.T, path string) (*swf.Header, []swf.Job) {
	t.Helper()
	h, jobs, err := swf.ReadFile(path) // strict
	if err != nil {
		t.Fatal(err)
	}
	return h, jobs
}

func TestFormats(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ from, in string }{
		{"sacct", "slurm-22.05/run1-sacct-parsable2.txt"},
		{"sacct-json", "slurm-22.05/run1-sacct.json.gz"},
		{"jobcomp", "slurm-22.05/run1-jobcomp.txt"},
		{"pbs", "pbs-torque.log"},
	} {
		out := filepath.Join(dir, c.from+".swf.gz")
		// Flags after the input work too.
		code, stdout, stderr := runCmd(t, "", "-from", c.from, testdata+c.in, "-o", out, "-tz", "UTC", "-procs", "8")
		if code != exitOK || stdout != "" || !strings.Contains(stderr, "jobs written to "+c.from+".swf.gz") {
			t.Fatalf("%s: exit %d\n%s%s", c.from, code, stdout, stderr)
		}
		h, jobs := readSWF(t, out)
		if h.MaxProcs != 8 || len(jobs) == 0 || int64(len(jobs)) != h.MaxJobs {
			t.Errorf("%s: header %+v, %d jobs", c.from, h, len(jobs))
		}
	}
}

func TestStdinJSONAndIDs(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile(testdata + "sacct-parsable2.txt")
	if err != nil {
		t.Fatal(err)
	}
	out, ids := filepath.Join(dir, "o.swf"), filepath.Join(dir, "ids")
	code, stdout, stderr := runCmd(t, string(data), "-from", "sacct", "-", "-o", out, "-json", "-ids", ids, "-tz", "UTC")
	if code != exitOK || stderr != "" {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rep convert.Report
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil || rep.Jobs != 15 || rep.Requeued != 1 || rep.Skipped["pending array tasks"] != 1 {
		t.Errorf("report %v %+v\n%s", err, rep, stdout)
	}
	got, _ := os.ReadFile(ids)
	if !strings.HasPrefix(string(got), "1 1001\n2 1002\n") || !strings.Contains(string(got), "7 1010_1\n") {
		t.Errorf("ids file:\n%s", got)
	}
	// SWF on standard output when there is no -o.
	code, stdout, _ = runCmd(t, string(data), "-from", "sacct", "-", "-tz", "UTC")
	if code != exitOK || !strings.HasPrefix(stdout, "; Version: 2.2\n") {
		t.Errorf("exit %d, stdout %.80q", code, stdout)
	}
}

func TestSeveralInputs(t *testing.T) {
	// Daily PBS files, one gzipped, one without a final newline: one log.
	dir := t.TempDir()
	data, _ := os.ReadFile(testdata + "pbs-torque.log")
	lines := strings.SplitAfter(string(data), "\n")
	a, b := filepath.Join(dir, "20240301"), filepath.Join(dir, "20240302.gz")
	os.WriteFile(a, []byte(strings.TrimSuffix(strings.Join(lines[:16], ""), "\n")), 0o644)
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write([]byte(strings.Join(lines[16:], "")))
	zw.Close()
	os.WriteFile(b, z.Bytes(), 0o644)
	whole, split := filepath.Join(dir, "whole.swf"), filepath.Join(dir, "split.swf")
	if code, _, stderr := runCmd(t, "", "-from", "pbs", testdata+"pbs-torque.log", "-o", whole, "-tz", "UTC"); code != 0 {
		t.Fatal(stderr)
	}
	if code, _, stderr := runCmd(t, "", "-from", "pbs", a, b, "-o", split, "-tz", "UTC"); code != 0 {
		t.Fatal(stderr)
	}
	_, j1 := readSWF(t, whole)
	_, j2 := readSWF(t, split)
	if len(j1) != 11 || len(j1) != len(j2) {
		t.Fatalf("%d and %d jobs", len(j1), len(j2))
	}
	for k := range j1 {
		if !reflect.DeepEqual(j1[k], j2[k]) { // Demand is a pointer
			t.Errorf("job %d: %+v vs %+v", k+1, j1[k], j2[k])
		}
	}
}

func TestUsageAndErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"x"}, exitUsage, "-from"},
		{[]string{"-from", "lsf", "x"}, exitUsage, "-from"},
		{[]string{"-from", "sacct"}, exitUsage, "missing input"},
		{[]string{"-from", "sacct", "x", "-nope"}, exitUsage, "not defined"},
		{[]string{"-from", "sacct", "x", "-json"}, exitUsage, "-o"},
		{[]string{"-from", "sacct", "-", "x"}, exitUsage, "only input"},
		{[]string{"-from", "sacct-json", "a", "b"}, exitUsage, "one input"},
		{[]string{"-from", "sacct", "x", "-tz", "Mars/Olympus"}, exitUsage, "-tz"},
		{[]string{"-from", "sacct", "x", "-partition-limit", "debug"}, exitUsage, "NAME=MINUTES"},
		{[]string{"-from", "sacct", "x", "-partition-limit", "a=5,b=1,a=6"}, exitUsage, "partition a given twice"},
		// (2^30 minutes, 2,000 years, was every Partition_Limit job's requested time)
		{[]string{"-from", "sacct", "x", "-partition-limit", "a=1073741824"}, exitUsage, "at most 7258118400 (120968640 minutes, 230 years)"},
		// (the bound is swf/convert's: one minute past it refused, as minutes whose seconds overflow)
		{[]string{"-from", "sacct", "x", "-partition-limit", "a=120968641"}, exitUsage, `"a=120968641": 120968641 minutes: PartitionLimits["a"]`},
		{[]string{"-from", "sacct", "x", "-partition-limit", "a=9223372036854775807"}, exitUsage, "9223372036854775807 minutes: "},
		{[]string{"-from", "sacct", "x", "-partition-limit", "a=0"}, exitUsage, "want NAME=MINUTES, a positive number"},
		{[]string{"-from", "sacct", "x", "-procs", "-1"}, exitUsage, "convert: -procs -1: MaxProcs"},
		// (the flag named, not only the library's field: "MaxProcs -1 is negative")
		{[]string{"-from", "sacct", "x", "-procs", "2199023255553"}, exitUsage, "convert: -procs 2199023255553: "},
		{[]string{"-from", "gpu", "x", "-cores-per-node", "-1"}, exitUsage, "convert: -cores-per-node -1: "},
		{[]string{"-from", "sacct", "x", "-now", "1709280600"}, exitUsage, "-now is the moment of a queue snapshot"},
		{[]string{"-from", "scontrol", "x", "-now", "yesterday"}, exitUsage, "RFC 3339"},
		{[]string{"-from", "slurmrestd", "a", "b"}, exitUsage, "one input"},
		{[]string{"-from", "pbs", "x", "-accounts"}, exitUsage, "-accounts reads Slurm's accounts and QOS"},
		{[]string{"-from", "sacct", "/nonexistent/file"}, exitError, "/nonexistent/file"},
		{[]string{"-from", "sacct-json", testdata + "sacct-parsable2.txt", "-o", os.DevNull}, exitError, "run with -from sacct"},
		{[]string{"-from", "sacct", testdata + "sacct-formatted.txt", "-strict", "-o", os.DevNull}, exitError, "line 13"},
		{[]string{"-from", "sacct", testdata + "sacct-parsable2.txt", "-o", "/nonexistent/dir/x.swf"}, exitError, "/nonexistent/dir/x.swf"},
	} {
		code, _, stderr := runCmd(t, "", c.args...)
		if code != c.code || !strings.Contains(stderr, c.msg) || strings.Count(stderr, "\n") != 1 || strings.Count(stderr, "convert: ") != 1 {
			t.Errorf("%q: exit %d, stderr %q; want exit %d and one line with %q, convert: once", c.args, code, stderr, c.code, c.msg)
		}
	}
	if code, stdout, _ := runCmd(t, "", "-columns"); code != 0 || stdout != convert.SacctFormat+"\n" {
		t.Errorf("-columns: %d %q", code, stdout)
	}
	if code, stdout, _ := runCmd(t, "", "-h"); code != 0 || !strings.Contains(stdout, "usage: convert") {
		t.Errorf("-h: %d %q", code, stdout)
	}
}

// TestREADME checks that the worked example in README.md is what the
// command prints today, and that the sacct command it gives uses the
// package's column set.
func TestREADME(t *testing.T) {
	doc, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "run1.swf")
	code, _, stderr := runCmd(t, "", "-from", "sacct", testdata+"slurm-22.05/run1-sacct-parsable2.txt", "-o", out, "-tz", "UTC", "-procs", "8")
	if code != 0 {
		t.Fatal(stderr)
	}
	swfText, _ := os.ReadFile(out)
	var jobs []string
	for _, l := range strings.Split(string(swfText), "\n") {
		if l != "" && !strings.HasPrefix(l, ";") || strings.HasPrefix(l, "; Queue:") || strings.HasPrefix(l, "; UnixStartTime:") {
			jobs = append(jobs, l)
		}
	}
	blocks := map[string]string{"report": stderr, "swf": strings.Join(jobs, "\n") + "\n"}
	// The queue snapshot example.
	code, _, stderr = runCmd(t, "", "-from", "slurmrestd", testdata+"snapshot/slurmrestd-v0.0.40.json", "-o", filepath.Join(dir, "queue.swf"), "-tz", "UTC")
	if code != 0 {
		t.Fatal(stderr)
	}
	blocks["snapshot-report"] = stderr
	swfText, _ = os.ReadFile(filepath.Join(dir, "queue.swf"))
	jobs = nil
	for _, l := range strings.Split(string(swfText), "\n") {
		if l != "" && !strings.HasPrefix(l, ";") || strings.HasPrefix(l, "; Queue:") || strings.HasPrefix(l, "; UnixStartTime:") ||
			strings.HasPrefix(l, "; SnapshotTime:") {
			jobs = append(jobs, l)
		}
	}
	blocks["snapshot-swf"] = strings.Join(jobs, "\n") + "\n"
	_, _, stderr = runCmd(t, "", "-from", "sacct-json", testdata+"snapshot/slurmrestd-v0.0.37.json", "-o", filepath.Join(dir, "x.swf"))
	blocks["unreadable"] = strings.ReplaceAll(stderr, testdata, "swf/convert/testdata/")
	if os.Getenv(readme.UpdateEnv) == "1" {
		for name, want := range blocks {
			re := regexp.MustCompile("(?s)<!-- " + name + ":begin -->\n.*?<!-- " + name + ":end -->")
			doc = re.ReplaceAllLiteral(doc, []byte("<!-- "+name+":begin -->\n```\n"+want+"```\n<!-- "+name+":end -->"))
		}
		if err := os.WriteFile("README.md", doc, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for name, want := range blocks {
		m := regexp.MustCompile("(?s)<!-- " + name + ":begin -->\n```\n(.*?)```\n<!-- " + name + ":end -->").FindSubmatch(doc)
		if m == nil {
			t.Errorf("README.md has no %s block", name)
			continue
		}
		if string(m[1]) != want {
			t.Errorf("README.md %s block is stale; the command prints:\n%s", name, want)
		}
	}
	if !strings.Contains(string(doc), "--format "+convert.SacctFormat) {
		t.Error("README.md's sacct command does not use convert.SacctFormat")
	}
}

// Queue snapshots convert to their running and waiting jobs, in every
// slurmrestd version and scontrol form.
func TestSnapshots(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ from, in string }{
		{"slurmrestd", "slurmrestd-v0.0.37.json"},
		{"slurmrestd", "slurmrestd-v0.0.38.json"},
		{"slurmrestd", "slurmrestd-v0.0.39.json"},
		{"slurmrestd", "slurmrestd-v0.0.40.json"},
		{"slurmrestd", "slurmrestd-v0.0.41.json"},
		{"scontrol", "scontrol-show-job.txt"},
		{"scontrol", "scontrol-show-job-o.txt"},
	} {
		out := filepath.Join(dir, "q.swf")
		data, err := os.ReadFile(testdata + "snapshot/" + c.in)
		if err != nil {
			t.Fatal(err)
		}
		// From standard input, -now in RFC 3339.
		code, stdout, stderr := runCmd(t, string(data), "-from", c.from, "-", "-o", out, "-json", "-now", "2024-03-01T08:10:00Z", "-tz", "UTC")
		var rep convert.Report
		if code != exitOK || json.Unmarshal([]byte(stdout), &rep) != nil || rep.Format != c.from || rep.Records != 8 {
			t.Errorf("%s: exit %d, %s%s", c.in, code, stdout, stderr)
			continue
		}
		h, jobs := readSWF(t, out)
		if len(jobs) != 9 || h.MaxJobs != 9 || !slices.Contains(h.Other, swf.KeyValue{Key: "SnapshotTime", Value: "1709280600"}) {
			t.Errorf("%s: %d jobs, header %+v", c.in, len(jobs), h)
		}
	}
}

// Issue 30: an input the command cannot read exits 1 with one line that
// names what the input is and what -from takes; it never writes 0 jobs
// and exits 0.
func TestUnreadableInputs(t *testing.T) {
	snap := testdata + "snapshot/"
	for _, c := range []struct {
		from, in string
		want     []string
	}{
		{"sacct-json", snap + "slurmrestd-v0.0.37.json", []string{"slurmrestd's GET /slurm/v0.0.XX/jobs", "-from slurmrestd"}},
		{"sacct-json", snap + "slurmrestd-v0.0.41.json", []string{"slurmrestd", "-from slurmrestd"}},
		{"jobcomp", snap + "scontrol-show-job.txt", []string{"scontrol show job output", "-from scontrol"}},
		{"jobcomp", snap + "scontrol-show-job-o.txt", []string{"scontrol show job output", "-from scontrol"}},
		{"sacct", snap + "scontrol-show-job.txt", []string{"scontrol", "-from scontrol"}},
		{"pbs", snap + "slurmrestd-v0.0.39.json", []string{"slurmrestd", "-from slurmrestd"}},
		{"scontrol", snap + "slurmrestd-v0.0.40.json", []string{"slurmrestd", "-from slurmrestd"}},
		{"slurmrestd", snap + "scontrol-show-job.txt", []string{"scontrol", "-from scontrol"}},
		{"slurmrestd", "pbs-torque.log", []string{"PBS/Torque accounting log", "-from pbs"}},
		{"jobcomp", "sacct-parsable2.txt", []string{"sacct --parsable2 output", "-from sacct"}},
		{"pbs", "main_test.go", []string{"not a PBS/Torque accounting log", "-from takes sacct, sacct-json, jobcomp, pbs"}},
	} {
		in := c.in
		if !strings.HasPrefix(in, testdata) && in != "main_test.go" {
			in = testdata + in
		}
		code, stdout, stderr := runCmd(t, "", "-from", c.from, in, "-o", filepath.Join(t.TempDir(), "x.swf"))
		ok := code == exitError && stdout == "" && strings.Count(stderr, "\n") == 1 && !strings.Contains(stderr, "struct") &&
			!strings.Contains(stderr, "the formats read are") // (the library's list beside -from's)
		for _, w := range c.want {
			ok = ok && strings.Contains(stderr, w)
		}
		if !ok {
			t.Errorf("-from %s %s: exit %d, stderr %q; want exit 1 naming %q", c.from, c.in, code, stderr, c.want)
		}
	}
}

// TestAccounts: -accounts writes the account in Group and the QOS in
// Partition, named in the header (Slurm 22.05's own jobcomp file: every
// job in account root, QOS normal).
func TestAccounts(t *testing.T) {
	out := filepath.Join(t.TempDir(), "acct.swf")
	code, _, stderr := runCmd(t, "", "-from", "jobcomp", testdata+"slurm-22.05/run1-jobcomp.txt", "-accounts", "-o", out, "-tz", "UTC")
	if code != 0 {
		t.Fatal(stderr)
	}
	h, jobs := readSWF(t, out)
	if len(jobs) == 0 {
		t.Fatal("no jobs")
	}
	for _, j := range jobs {
		if j.Group != 1 || j.Partition != 1 {
			t.Errorf("job %d: Group %d, Partition %d; want 1 (root) and 1 (normal)", j.ID, j.Group, j.Partition)
		}
	}
	if !slices.Contains(h.Partition, "1 normal") || !slices.Contains(h.Other, swf.KeyValue{Key: "Account", Value: "1 root"}) {
		t.Errorf("header: Partition %q, Other %q", h.Partition, h.Other)
	}
}

// A directory given as the log is refused once, by name (it was named
// twice: "convert: d: d: read d: is a directory").
func TestInputDirectory(t *testing.T) {
	dir := t.TempDir()
	code, _, errs := runCmd(t, "", "-from", "sacct", dir)
	if want := "convert: " + dir + ": is a directory, not a log\n"; code != 1 || errs != want {
		t.Errorf("exit %d, stderr %q; want 1, %q", code, errs, want)
	}
}

// A conversion that writes no job says so on its first lines (exit 0: the
// log was read), instead of a bare "0 jobs written".
func TestNoJobWarning(t *testing.T) {
	for _, in := range []string{"JobID|State|Submit\n", "JobID|State|Submit\n1|PENDING|2024-01-01T00:00:00\n"} {
		code, _, stderr := runCmd(t, in, "-from", "sacct", "-", "-o", filepath.Join(t.TempDir(), "x.swf"))
		if code != exitOK || !strings.Contains(stderr, "0 jobs written") || !strings.Contains(stderr, "warning: no job written") {
			t.Errorf("%q: exit %d, %s", in, code, stderr)
		}
	}
	code, _, stderr := runCmd(t, "JobID|State|Submit\n1|COMPLETED|2024-01-01T00:00:00\n", "-from", "sacct", "-", "-o", filepath.Join(t.TempDir(), "x.swf"))
	if code != exitOK || strings.Contains(stderr, "warning") {
		t.Errorf("exit %d, %s", code, stderr)
	}
}

// -json says it too: a pod list with its header and no pod (exit 0, "jobs": 0)
// had the text report's warning, and the JSON report none.
func TestNoJobWarningJSON(t *testing.T) {
	for _, c := range [][2]string{
		{"alibaba", "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time\n"},
		{"sacct", "JobID|State|Submit\n1|PENDING|2024-01-01T00:00:00\n"},
	} {
		code, stdout, stderr := runCmd(t, c[1], "-from", c[0], "-", "-o", filepath.Join(t.TempDir(), "x.swf"), "-json")
		var r struct {
			Jobs     int      `json:"jobs"`
			Warnings []string `json:"warnings"`
		}
		if err := json.Unmarshal([]byte(stdout), &r); err != nil || code != exitOK {
			t.Fatalf("%s: exit %d, %v: %s%s", c[0], code, err, stdout, stderr)
		}
		if r.Jobs != 0 || len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], "no job written") {
			t.Errorf("%s: %s", c[0], stdout)
		}
	}
	code, stdout, _ := runCmd(t, "JobID|State|Submit\n1|COMPLETED|2024-01-01T00:00:00\n", "-from", "sacct", "-", "-o", filepath.Join(t.TempDir(), "x.swf"), "-json")
	if code != exitOK || strings.Contains(stdout, "warnings") {
		t.Errorf("exit %d, %s", code, stdout)
	}
}

// Text of the input in the report (a state, a column name) is printed
// quoted when it is not printable UTF-8, never raw to the terminal.
func TestReportTextQuoted(t *testing.T) {
	in := "JobID|State|Submit|Start|End|AllocCPUS\n1|\x1b]0;pwned\a|1704067200|1704067201|1704067209|1\n"
	code, _, stderr := runCmd(t, in, "-from", "sacct", "-", "-o", filepath.Join(t.TempDir(), "x.swf"))
	if code != exitOK || strings.ContainsAny(stderr, "\x1b\a") || !strings.Contains(stderr, `"\x1b]0;PWNED\a"`) {
		t.Errorf("exit %d, %q", code, stderr)
	}
}

// A failed write removes its partial output when it is a regular file
// (plain or .gz) and leaves a device named as the output alone.
func TestWriteFilePartial(t *testing.T) {
	dir := t.TempDir()
	fail := func(w io.Writer) error {
		w.Write([]byte("1 0 0 10 1\n"))
		return errors.New("disk full")
	}
	for _, name := range []string{"out.swf", "out.swf.gz"} {
		path := filepath.Join(dir, name)
		if err := writeFile(path, nil, fail); err == nil || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: error %v, want one naming the file", name, err)
		}
		if _, err := os.Lstat(path); !os.IsNotExist(err) {
			t.Errorf("%s: partial output kept (%v)", name, err)
		}
	}
	if err := writeFile(os.DevNull, nil, fail); err == nil {
		t.Error(os.DevNull + ": no error")
	}
	if fi, err := os.Lstat(os.DevNull); err != nil || fi.Mode().IsRegular() {
		t.Errorf("%s removed or replaced: %v", os.DevNull, err)
	}
}

// TestReadmeExitStatus pins README.md's "An input that is not what -from
// says" against the command: an unreadable input (here an empty one and
// a line with no header) exits 1 and writes no file; a readable log with
// no job (a header alone, a pending job only) exits 0 with the warning
// and writes the empty trace. The README said "never writes 0 jobs and
// exits 0", which the second case does.
func TestReadmeExitStatus(t *testing.T) {
	doc, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	prose := strings.Join(strings.Fields(string(doc)), " ")
	for _, want := range []string{
		"cannot read (an empty input, another format's output, a file that is no log) is an error (exit 1, no output file)",
		"A log it can read that yields no job (a header line alone, or every record skipped: jobs still pending, say) is not an error: it writes the empty trace and exits 0 with `warning: no job written` on stderr",
	} {
		if !strings.Contains(prose, want) {
			t.Errorf("README.md lacks %q", want)
		}
	}
	for _, in := range []string{"", "hello\n"} {
		out := filepath.Join(t.TempDir(), "x.swf")
		code, _, stderr := runCmd(t, in, "-from", "sacct", "-", "-o", out)
		if _, err := os.Stat(out); code != exitError || err == nil || strings.Contains(stderr, "warning") {
			t.Errorf("%q: exit %d (file left: %v), %s; want exit 1 and no file", in, code, err == nil, stderr)
		}
	}
	for _, in := range []string{"JobID|State|Submit\n", "JobID|State|Submit\n1|PENDING|2024-01-01T00:00:00\n"} {
		out := filepath.Join(t.TempDir(), "x.swf")
		code, _, stderr := runCmd(t, in, "-from", "sacct", "-", "-o", out)
		if code != exitOK || !strings.Contains(stderr, "warning: no job written") {
			t.Errorf("%q: exit %d, %s; want exit 0 and the warning", in, code, stderr)
			continue
		}
		if _, jobs := readSWF(t, out); len(jobs) != 0 {
			t.Errorf("%q: %d jobs written", in, len(jobs))
		}
	}
}

package clitest

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/batchq/batchq/examples/internal/cli"
)

// The Parallel Workloads Archive holds logs the repository does not ship
// (ANL-Intrepid, HPC2N, LLNL-Thunder and uBGL, LPC-EGEE, METACENTRUM,
// PIK-IPLEX, RICC, Sandia-Ross, SHARCNET, UniLu-Gaia, Intel-Netbatch,
// KIT-FH2, and the original versions of the cleaned ones, with their
// flurries and status-5 cancellations). Quirks builds, by code, small SWF
// logs that each carry one of their known oddities, and RunQuirks runs a
// command over all of them: whatever it makes of a log, it must not
// panic, hang or print a wrapped-around number, must refuse with a
// message and exit 1 (never a usage error: the log is not a flag), and
// its -json output must be JSON.

// Quirk is one synthetic log.
type Quirk struct {
	Name string
	Text string
	// Empty: the log has no job line (a command says so, exit 1).
	Empty bool
	// Malformed: a strict read refuses it (a line of 17 or 19 fields).
	Malformed bool
}

// quirkJob is one line's 18 fields, all integers (SWF's float fields
// 6, 7 and 10 are written as integers, or as written by Floats).
type quirkJob [18]int64

func (j quirkJob) String() string {
	var b strings.Builder
	for i, v := range j {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%d", v)
	}
	return b.String()
}

// quirkBase is the workload every quirk bends: 24 jobs on a machine of 16
// processors in 4 nodes, 3 users, 2 queues over 10 hours, every job
// sane, estimates above the run time (up to 18 h) but for the jobs that
// overrun theirs.
func quirkBase() []quirkJob {
	var jobs []quirkJob
	for i := range 24 {
		size := int64(1 << (i % 5)) // 1..16
		run := int64(60 + 1900*(i%11))
		est := 2 * run
		switch {
		case i%7 == 3:
			est = run / 2 // overruns its estimate
		case i%6 == 1:
			est = 18 * 3600 // the log's E_max
		}
		jobs = append(jobs, quirkJob{
			int64(i + 1), int64(100 + 1500*i), int64((3001 * i) % 7200), run, size, -1, -1, size, est, -1,
			1, int64(1 + i%3), 1, int64(1 + i%4), int64(1 + i%2), 1, -1, -1})
	}
	return jobs
}

const quirkHeader = "; Version: 2.2\n; Computer: quirk machine\n; MaxJobs: 24\n; MaxRecords: 24\n; MaxNodes: 4\n; MaxProcs: 16\n; UnixStartTime: 1200000000\n"

func quirkText(head string, jobs []quirkJob) string {
	var b strings.Builder
	b.WriteString(head)
	for _, j := range jobs {
		b.WriteString(j.String())
		b.WriteByte('\n')
	}
	return b.String()
}

// fieldNames are SWF's 18 fields, for the quirks' names.
var fieldNames = [18]string{"id", "submit", "wait", "run", "alloc", "cpu", "mem", "req", "est",
	"reqmem", "status", "user", "group", "exe", "queue", "partition", "preceding", "think"}

// Quirks returns the synthetic logs (see above).
func Quirks() []Quirk {
	base := quirkBase()
	q := func(name, head string, edit func(j []quirkJob) []quirkJob) Quirk {
		jobs := edit(slices.Clone(base))
		return Quirk{Name: name, Text: quirkText(head, jobs), Empty: len(jobs) == 0}
	}
	same := func(j []quirkJob) []quirkJob { return j }
	var out []Quirk
	out = append(out,
		q("plain", quirkHeader, same),
		// uBGL, Intrepid's early versions: the size in nodes alone
		q("maxnodes-only", "; Version: 2.2\n; MaxNodes: 16\n", same),
		// SHARCNET (several machines in one log), METACENTRUM: the
		// header's size is one machine's, jobs ask for more
		q("maxprocs-small", "; MaxProcs: 4\n; MaxNodes: 4\n", same),
		q("maxprocs-below-maxnodes", "; MaxProcs: 2\n; MaxNodes: 16\n", same),
		// a size the reader keeps as text: the size is MaxNodes's
		q("maxprocs-unreadable", "; MaxProcs: 16.5\n; MaxNodes: 16\n", same),
		q("notes", "; Version: 2.2\n; Note: the scheduler was reconfigured on day 3\n; MaxProcs: 16\n; Note: jobs of queue 2 are interactive\n;\n; Note:\n", same),
		q("time-zone-string", "; MaxProcs: 16\n; UnixStartTime: 1136070000\n; TimeZoneString: Europe/Stockholm\n; StartTime: Sun Jan 01 00:00:00 CET 2006\n; EndTime: Mon Jan 01 00:00:00 CET 2007\n", same),
		q("time-zone-offset", "; MaxProcs: 16\n; UnixStartTime: 0\n; TimeZone: -18000\n", same),
		q("time-zone-odd", "; MaxProcs: 16\n; UnixStartTime: -1\n; TimeZone: Europe/Berlin\n; TimeZoneString: \n; UnixStartTime: 99999999999999999999\n", same),
		q("queues-partitions", "; MaxProcs: 16\n; MaxQueues: 1\n; Queues: 1 batch\n; Queue: 1 batch\n; MaxPartitions: 1\n; Partitions: 1 all\n; Partition: 1 all nodes\n",
			func(j []quirkJob) []quirkJob {
				for i := range j {
					j[i][14], j[i][15] = int64(1+i%9), int64(1+i%5) // past the header's 1
				}
				return j
			}),
		q("mid-comments", quirkHeader, same),
		q("late-header", quirkHeader, same),
		q("one-job", quirkHeader, func(j []quirkJob) []quirkJob { return j[:1] }),
		q("zero-jobs", quirkHeader, func(j []quirkJob) []quirkJob { return nil }),
		q("no-header", "", same),
		// LPC-EGEE, Intel-Netbatch: no estimate anywhere
		q("no-estimates", quirkHeader, func(j []quirkJob) []quirkJob {
			for i := range j {
				j[i][8] = -1
			}
			return j
		}),
		q("run-zero", quirkHeader, func(j []quirkJob) []quirkJob {
			for i := range j {
				if i%3 == 0 {
					j[i][3] = 0
				}
			}
			return j
		}),
		q("all-run-zero", quirkHeader, func(j []quirkJob) []quirkJob {
			for i := range j {
				j[i][3] = 0
			}
			return j
		}),
		q("overrun", quirkHeader, func(j []quirkJob) []quirkJob {
			for i := range j {
				j[i][8] = j[i][3] / 3 // every estimate below the run time
			}
			return j
		}),
		q("estimate-zero", quirkHeader, func(j []quirkJob) []quirkJob {
			for i := range j {
				if i%2 == 0 {
					j[i][8] = 0
				}
			}
			return j
		}),
		q("out-of-order", quirkHeader, func(j []quirkJob) []quirkJob {
			for i := range j {
				j[i][1] = int64(2000 - 77*i)
			}
			return j
		}),
		q("submit-zero", quirkHeader, func(j []quirkJob) []quirkJob {
			for i := range j {
				j[i][1] = 0
			}
			return j
		}),
		q("duplicate-ids", quirkHeader, func(j []quirkJob) []quirkJob {
			for i := range j {
				j[i][0] = int64(1 + i/3) // overlapping and not
			}
			return j
		}),
		q("ids-descending", quirkHeader, func(j []quirkJob) []quirkJob {
			for i := range j {
				j[i][0] = int64(100 - i)
			}
			return j
		}),
		q("id-zero", quirkHeader, func(j []quirkJob) []quirkJob {
			for i := range j {
				j[i][0] = int64(i)
			}
			return j
		}),
		// SHARCNET, PIK-IPLEX: jobs larger than the machine
		q("larger-than-machine", quirkHeader, func(j []quirkJob) []quirkJob {
			for i := range j {
				if i%4 == 1 {
					j[i][4], j[i][7] = 64, 64
				}
			}
			return j
		}),
		q("all-larger-than-machine", quirkHeader, func(j []quirkJob) []quirkJob {
			for i := range j {
				j[i][4], j[i][7] = 17, 32
			}
			return j
		}),
		q("req-unknown-alloc-given", quirkHeader, func(j []quirkJob) []quirkJob {
			for i := range j {
				j[i][7] = -1
			}
			return j
		}),
		q("alloc-unknown-req-given", quirkHeader, func(j []quirkJob) []quirkJob {
			for i := range j {
				j[i][4] = -1
			}
			return j
		}),
		q("alloc-req-differ", quirkHeader, func(j []quirkJob) []quirkJob {
			for i := range j {
				j[i][7] = 17 - j[i][4]
			}
			return j
		}),
		q("size-zero", quirkHeader, func(j []quirkJob) []quirkJob {
			for i := range j {
				if i%2 == 0 {
					j[i][4], j[i][7] = 0, 0
				}
			}
			return j
		}),
		// the original (not "cln") versions: status 5 cancellations,
		// which never ran (run 0 or −1, wait −1), and other codes
		q("status-codes", quirkHeader, func(j []quirkJob) []quirkJob {
			codes := []int64{0, 1, 5, -1, 2, 3, 4, 5, -2, 6, 99, -4}
			for i := range j {
				c := codes[i%len(codes)]
				j[i][10] = c
				if c == 5 && i%2 == 0 {
					j[i][3], j[i][2], j[i][4] = -1, -1, -1
				} else if c == 5 {
					j[i][3] = 0
				}
			}
			return j
		}),
		// checkpointed jobs as SWF writes them: the summary line, then
		// one line a run (status 2, the last 3 or 4), under its number
		q("checkpointed", quirkHeader, func(j []quirkJob) []quirkJob {
			var out []quirkJob
			for i, job := range j {
				out = append(out, job)
				if i%4 == 1 {
					a, b := job, job
					a[10], a[3] = 2, job[3]/3
					b[10], b[3] = int64(3+i%2), job[3]-job[3]/3
					out = append(out, a, b)
				}
			}
			return out
		}),
		// a job given by its partial lines alone, no summary line
		q("partial-only", quirkHeader, func(j []quirkJob) []quirkJob {
			var out []quirkJob
			for i, job := range j {
				if i%3 != 2 {
					out = append(out, job)
					continue
				}
				a, b := job, job
				a[10], b[10] = 2, 4
				out = append(out, a, b)
			}
			return out
		}),
		// clusters of a grid or a site as partitions (DAS2, SHARCNET,
		// METACENTRUM): field 16, the header's Partitions, no MaxProcs
		q("cluster-partitions", "; Version: 2.2\n; MaxPartitions: 3\n; Partitions: 3\n; Partition: 1 fs0 16 procs\n; Partition: 2 fs1 8\n; Partition: 3 fs2\n",
			func(j []quirkJob) []quirkJob {
				for i := range j {
					j[i][15] = int64(1 + i%3)
				}
				return j
			}),
		// the think time and preceding job (fields 17, 18) of a session
		// log, one of them its own number, one a later job's
		q("think-preceding", quirkHeader, func(j []quirkJob) []quirkJob {
			for i := 1; i < len(j); i++ {
				j[i][16], j[i][17] = j[i-1][0], int64(30*i)
			}
			j[3][16], j[5][16] = j[3][0], j[9][0]
			return j
		}),
		q("all-cancelled", quirkHeader, func(j []quirkJob) []quirkJob {
			for i := range j {
				j[i][10], j[i][3], j[i][2] = 5, -1, -1
			}
			return j
		}),
		// flurries: one user's hundreds of jobs in a minute
		q("flurry", quirkHeader, func(j []quirkJob) []quirkJob {
			for i := range 300 {
				j = append(j, quirkJob{int64(100 + i), int64(2000 + i/5), 0, 30, 1, -1, -1, 1, 60, -1, 1, 7, 1, 9, 1, 1, -1, -1})
			}
			return j
		}),
		q("far-future", quirkHeader, func(j []quirkJob) []quirkJob {
			j[3][1] = 1 << 41
			j[4][3] = 1 << 50
			j[5][8] = 1 << 50
			j[6][2] = 1 << 45
			return j
		}),
		q("huge-values", quirkHeader, func(j []quirkJob) []quirkJob {
			j[2][4], j[2][7] = 1<<62, 1<<62
			j[3][3] = 1<<62 + 1
			j[4][8] = 1<<62 + 1
			j[5][1] = 1 << 62
			j[6][0] = 1<<62 + 7
			j[7][11] = 1 << 62
			return j
		}),
		q("huge-header", "; MaxProcs: 1099511627776\n; MaxNodes: 1099511627776\n; MaxJobs: 9223372036854775807\n; MaxRecords: 4611686018427387904\n; MaxRuntime: 9223372036854775807\n", same),
	)
	// −1 in every field in turn, in every job
	for f := range 18 {
		out = append(out, q("minus-one-"+fieldNames[f], quirkHeader, func(j []quirkJob) []quirkJob {
			for i := range j {
				j[i][f] = -1
			}
			return j
		}))
	}
	// −1 in every field at once
	out = append(out, q("minus-one-all", quirkHeader, func(j []quirkJob) []quirkJob {
		for i := range j {
			for f := range 18 {
				j[i][f] = -1
			}
		}
		return j
	}))

	// Textual variants of the plain log.
	plain := quirkText(quirkHeader, base)
	lines := strings.SplitAfter(plain, "\n")
	out = append(out,
		Quirk{Name: "crlf", Text: strings.ReplaceAll(plain, "\n", "\r\n")},
		Quirk{Name: "cr-only", Text: strings.ReplaceAll(plain, "\n", "\r")},
		Quirk{Name: "tabs", Text: strings.ReplaceAll(plain, " ", "\t")},
		Quirk{Name: "padded", Text: regexp.MustCompile(`(?m)^(\d)`).ReplaceAllString(strings.ReplaceAll(plain, " ", "   "), " \t $1")},
		Quirk{Name: "trailing-blanks", Text: strings.ReplaceAll(plain, "\n", " \t \n")},
		Quirk{Name: "bom", Text: "\ufeff" + plain},
		Quirk{Name: "no-final-newline", Text: strings.TrimSuffix(plain, "\n")},
		Quirk{Name: "blank-lines", Text: strings.ReplaceAll(plain, "\n", "\n\n")},
		Quirk{Name: "floats", Text: regexp.MustCompile(`(?m)^(\S+ \S+ \S+ \S+ \S+) -1 -1 (\S+ \S+) -1 `).ReplaceAllString(plain, "$1 12.50 1024.00 $2 -1.00 ")},
		Quirk{Name: "fields-17", Text: strings.Join(lines[:10], "") + "25 3000 0 60 1 -1 -1 1 120 -1 1 1 1 1 1 1 -1\n" + strings.Join(lines[10:], ""), Malformed: true},
		Quirk{Name: "fields-19", Text: strings.Join(lines[:10], "") + "25 3000 0 60 1 -1 -1 1 120 -1 1 1 1 1 1 1 -1 -1 0\n" + strings.Join(lines[10:], ""), Malformed: true},
		Quirk{Name: "all-fields-19", Text: strings.ReplaceAll(plain, " -1 -1\n", " -1 -1 0\n"), Malformed: true},
		// a wait below -1 (a start logged before the submit): read as
		// -1, unknown, and counted (swf.Stats.BelowUnknown)
		Quirk{Name: "negative-wait", Text: strings.Join(lines[:10], "") + "25 3000 -5 60 1 -1 -1 1 120 -1 1 1 1 1 1 1 -1 -1\n" + strings.Join(lines[10:], "")},
	)
	// comments mid-file and header keys after the first job
	for i := range out {
		switch out[i].Name {
		case "mid-comments":
			out[i].Text = strings.Replace(out[i].Text, "\n13 ", "\n; a comment in the middle\n;\n; Note: the machine was down\n13 ", 1)
		case "late-header":
			out[i].Text = strings.Replace(out[i].Text, "\n13 ", "\n; MaxProcs: 64\n; UnixStartTime: 1300000000\n13 ", 1)
		}
	}
	return out
}

// HeaderSaid runs cmd with each of variants (as RunQuirks) on the quirks
// whose header has lines the reader does not take as written (late-header:
// a MaxProcs after the first job line; maxprocs-unreadable: a MaxProcs
// kept as text, the size MaxNodes's) and wants each run to exit 0 and say
// so (cli.HeaderNote's "header line", or -json's "header_warnings"): the commands ran on another size
// than the line gave without a word.
//
// A variant's "DIR(NAME,...)" is, as in RunQuirks, a new directory that
// holds the log as each NAME, for the commands that read logs by their
// archive names (apq, flurries, tsafrir).
//
// A -json key the output carries is named in the command's README.md,
// where its -json keys are listed: header_warnings was added to six
// commands and named in none.
func HeaderSaid(t *testing.T, cmd cli.Command, variants [][]string) {
	t.Helper()
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatalf("the command's README: %v", err)
	}
	dir := t.TempDir()
	out := 0
	for _, qk := range Quirks() {
		if qk.Name != "late-header" && qk.Name != "maxprocs-unreadable" {
			continue
		}
		path := filepath.Join(dir, qk.Name+".swf")
		writeLog(t, path, []byte(qk.Text))
		for _, v := range variants {
			args := slices.Clone(v)
			for i, a := range args {
				args[i] = strings.ReplaceAll(a, "TRACE", path)
				if names, ok := strings.CutPrefix(a, "DIR("); ok {
					out++
					args[i] = logDir(t, filepath.Join(dir, fmt.Sprintf("dir-%d", out)), names, qk.Text)
				}
			}
			r, ok := ExecBounded(cmd, "", args)
			switch {
			case !ok:
				t.Errorf("%s %q: no end after %v", qk.Name, v, quirkTimeout)
			case r.Code != cli.ExitOK:
				t.Errorf("%s %q: exit %d: %.500s", qk.Name, v, r.Code, r.Stderr)
			case !strings.Contains(r.Stdout+r.Stderr, "header line") && !strings.Contains(r.Stdout, `"header_warnings"`):
				t.Errorf("%s %q: the header lines not taken as written are not said:\n%.1500s\n%.500s", qk.Name, v, r.Stdout, r.Stderr)
			case strings.Contains(r.Stdout, `"header_warnings"`) && !bytes.Contains(readme, []byte("`header_warnings`")):
				t.Errorf("%s %q: -json has header_warnings, which README.md does not name", qk.Name, v)
			}
		}
	}
}

// logDir makes directory d holding text as each of names ("A,B)", the
// rest of RunQuirks' "DIR(A,B)"), gzip if a name ends in .gz, and
// returns d.
func logDir(t *testing.T, d, names, text string) string {
	t.Helper()
	if err := os.Mkdir(d, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, n := range strings.Split(strings.TrimSuffix(names, ")"), ",") {
		writeLog(t, filepath.Join(d, n), []byte(text))
	}
	return d
}

// QuirkRun is one run of RunQuirks.
type QuirkRun struct {
	Quirk Quirk
	Args  []string
	Result
}

// quirkTimeout bounds one run on a quirk log (of at most 324 jobs).
const quirkTimeout = 60 * time.Second

// wrapped matches the numbers a wraparound or an unknown taken as a value
// prints: int64's and uint64's ends, and values a −1 shifted or
// multiplied makes.
var wrapped = regexp.MustCompile(`-?9223372036854775[0-9]{3}|18446744073709551[0-9]{3}|4294967295|2147483648|NaN|[+-]?Inf`)

// RunQuirks writes each quirk log into a temporary directory and runs cmd
// on each invocation of variants, with "TRACE" replaced by the log's
// path ("GZTRACE" by its gzip copy's), "OUT" by a new file's path, "DIR(NAME,...)" by a new directory that
// holds the log as each NAME (gzip if NAME ends in .gz), for the commands that
// read logs by their archive names, and "-" (standard input) given the
// log, checking what every command owes (see above). check, if not nil,
// sees every run, for the command's own checks.
func RunQuirks(t *testing.T, cmd cli.Command, variants [][]string, check func(t *testing.T, r QuirkRun)) {
	t.Helper()
	dir := t.TempDir()
	out := 0
	for _, qk := range Quirks() {
		path := filepath.Join(dir, qk.Name+".swf")
		writeLog(t, path, []byte(qk.Text))
		writeLog(t, path+".gz", []byte(qk.Text))
		for _, v := range variants {
			args := slices.Clone(v)
			stdin := ""
			for i, a := range args {
				args[i] = strings.ReplaceAll(strings.ReplaceAll(a, "GZTRACE", path+".gz"), "TRACE", path)
				if a == "OUT" {
					out++
					args[i] = filepath.Join(dir, fmt.Sprintf("out-%d", out))
				}
				if a == "-" {
					stdin = qk.Text
				}
				if names, ok := strings.CutPrefix(a, "DIR("); ok {
					out++
					args[i] = logDir(t, filepath.Join(dir, fmt.Sprintf("dir-%d", out)), names, qk.Text)
				}
			}
			name := qk.Name + " " + strings.Join(v, " ")
			r, ok := ExecBounded(cmd, stdin, args)
			if !ok {
				t.Errorf("%s: no end after %v", name, quirkTimeout)
				continue
			}
			CheckQuirkRun(t, name, qk, args, r)
			if check != nil {
				check(t, QuirkRun{qk, args, r})
			}
		}
	}
}

// ExecBounded is Exec with a bound on its time and a panic caught: false
// when the command did not end in time.
func ExecBounded(cmd cli.Command, stdin string, args []string) (Result, bool) {
	done := make(chan Result, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- Result{Code: -1, Stderr: fmt.Sprintf("panic: %v", p)}
			}
		}()
		done <- Exec(cmd, stdin, args...)
	}()
	select {
	case r := <-done:
		return r, true
	case <-time.After(quirkTimeout):
		return Result{}, false
	}
}

// CheckQuirkRun checks what every command owes on the run r, named name,
// of args on the log qk.
func CheckQuirkRun(t *testing.T, name string, qk Quirk, args []string, r Result) {
	t.Helper()
	switch r.Code {
	case cli.ExitOK:
		if slices.Contains(args, "-json") {
			if err := CheckJSON(r.Stdout); err != nil {
				t.Errorf("%s: -json: %v in %.300q", name, err, r.Stdout)
			}
		}
	case cli.ExitError:
		if strings.TrimSpace(r.Stderr) == "" {
			t.Errorf("%s: exit 1 without a message", name)
		}
	default:
		t.Errorf("%s: exit %d, stderr %.500q", name, r.Code, r.Stderr)
	}
	if m := wrapped.FindString(r.Stdout + r.Stderr); m != "" && !strings.Contains(qk.Text, m) {
		t.Errorf("%s: %q in the output (a wraparound?):\n%.2000s\n%.500s", name, m, r.Stdout, r.Stderr)
	}
}

// StalledGzip is standard input that gives a gzip log whose line 3 has 17
// fields, with more text behind it than an inflater hands over at once,
// and then stalls, as a writer that keeps the pipe open does, until
// release is called.
func StalledGzip() (stdin io.Reader, release func()) {
	var b strings.Builder
	b.WriteString("; MaxProcs: 16\n1 0 0 10 1 -1 -1 1 20 -1 1 1 1 1 1 1 -1 -1\n2 0 0 10 1 -1 -1 1 20 -1 1 1 1 1 1 1 -1\n")
	for i := 3; b.Len() < 256<<10; i++ {
		fmt.Fprintf(&b, "%d %d 0 10 1 -1 -1 1 20 -1 1 1 1 1 1 1 -1 -1\n", i, i)
	}
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write([]byte(b.String()))
	zw.Flush() // (no Close: the stream goes on, later)
	in := stalled{make(chan struct{})}
	var once sync.Once
	return io.MultiReader(&z, in), func() { once.Do(func() { close(in.release) }) }
}

// stalled has no more to give yet and never ends until release is closed.
type stalled struct{ release chan struct{} }

func (s stalled) Read([]byte) (int, error) {
	<-s.release
	return 0, io.EOF
}

// CheckDamageStall runs a command on StalledGzip as standard input ("-")
// and wants the malformed line's error (exit 1, "line 3", 17 fields)
// within 20 s: a strict read that reads on for a damaged gzip stream's
// own error must give up on an input that stalls (the command's bound,
// cli.DamageIdle, set short by the caller).
func CheckDamageStall(t *testing.T, name string, run func(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int) {
	t.Helper()
	stdin, release := StalledGzip()
	defer release()
	type result struct {
		code   int
		stderr string
	}
	done := make(chan result, 1)
	go func() {
		var out, errb bytes.Buffer
		code := run(context.Background(), []string{"-"}, stdin, &out, &errb)
		done <- result{code, errb.String()}
	}()
	select {
	case r := <-done:
		if r.code != 1 || !strings.Contains(r.stderr, "standard input") || !strings.Contains(r.stderr, "line 3") || !strings.Contains(r.stderr, "wrong number of fields: 17") {
			t.Errorf("exit %d, %q; want the line's error", r.code, r.stderr)
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("%s waited 20 s for an input that stalled after its error", name)
	}
}

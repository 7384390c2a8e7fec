// Command convert turns a scheduler's accounting log into an SWF trace
// (package swf/convert): Slurm's sacct (--parsable2 or --json), Slurm's
// jobcomp/filetxt file, or a PBS/Torque accounting log; or a snapshot of
// a Slurm queue (slurmrestd's GET /slurm/v0.0.XX/jobs, squeue --json,
// scontrol show job) into the jobs running and waiting at that moment; or
// a pod list of Alibaba's GPU cluster trace of 2023 into jobs with their
// demands (cores, memory, GPUs or a GPU share, GPU models); or the job
// table of SenseTime's Helios, Shanghai AI Lab's Acme or Microsoft's
// Philly trace, or Alibaba PAI 2020's job and task tables together, into
// jobs of GPUs with their demands (-from gpu). It
// prints what it wrote, skipped and could not fill, with reasons; an input
// it cannot read is an error naming what it is and the formats it takes.
//
//	SLURM_TIME_FORMAT=%s sacct --allusers --duplicates --parsable2 --starttime 2024-01-01 \
//	    --endtime now --format JobID,JobIDRaw,...  > jobs.txt     (the column set: -columns)
//	go run ./examples/convert -from sacct jobs.txt -o jobs.swf.gz -procs 4096
//	sacct -a -D --json -S 2024-01-01 | go run ./examples/convert -from sacct-json - -o jobs.swf
//	go run ./examples/convert -from pbs /var/spool/torque/server_priv/accounting/2024* -o pbs.swf
//	go run ./examples/convert -from jobcomp jobcomp.log -json -o out.swf    # report as JSON
//	scontrol show job | go run ./examples/convert -from scontrol - -o queue.swf # a queue snapshot
//	go run ./examples/convert -from alibaba openb_pod_list_default.csv -o openb.swf -ids pods.txt
//	go run ./examples/convert -from gpu Venus/cluster_log.csv -tz Asia/Shanghai -o venus.swf  # Helios, Acme, Philly
//	go run ./examples/convert -from gpu pai_job_table.csv pai_task_table.csv -o pai.swf     # Alibaba PAI 2020
//	go run ./examples/convert -from gpu slurm-log.csv -o supercloud.swf                    # MIT SuperCloud
//	go run ./examples/convert -from gpu ANL-ALCF-DJC-THETA_20230101_20231130.csv -o theta.swf # ALCF
//	go run ./examples/convert -from gpu jobs.tsv -colmap submit=Submit,start=Start,end=End,nodes=NNodes,state=State -cores-per-node 56 -o site.swf
//
// Several input files are read as one log, in the order given (not for
// sacct-json, one JSON document); each sacct file keeps its header line. Flags may
// come before or after them. Exit status: 0 ok, 1 a run error (unreadable
// input, a malformed record with -strict, unwritable output), 2 a usage
// error.
package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/batchq/batchq/examples/internal/cli"
	"github.com/batchq/batchq/internal/inflate"
	"github.com/batchq/batchq/internal/progress"
	"github.com/batchq/batchq/internal/utf16text"
	"github.com/batchq/batchq/swf"
	"github.com/batchq/batchq/swf/convert"
)

func main() { cli.Main(command) }

// command is run as a cli.Command (conversion does not watch ctx: an
// interrupt ends it after cli.Main's grace period).
func command(_ context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return run(args, stdin, stdout, stderr)
}

var formats = map[string]func(io.Reader, convert.Options) (*convert.Result, error){
	"sacct": convert.Sacct, "sacct-json": convert.SacctJSON, "jobcomp": convert.Jobcomp, "pbs": convert.PBS,
	"slurmrestd": snapshot("slurmrestd"), "scontrol": snapshot("scontrol"),
	"alibaba": convert.Alibaba, "gpu": convert.GPUTrace,
}

// formatList is the -from values, for messages.
const formatList = "sacct, sacct-json, jobcomp, pbs (accounting logs), slurmrestd or scontrol (queue snapshots), " +
	"alibaba (the Alibaba GPU 2023 trace's pod list), gpu (the Helios, Acme or Philly job table, or the Alibaba PAI 2020 job and task tables; " +
	"MIT SuperCloud's or ALCF's job table; any job table with -colmap)"

// snapshot converts a queue snapshot of the given form to SWF; the other
// form is an error that names it.
func snapshot(form string) func(io.Reader, convert.Options) (*convert.Result, error) {
	return func(r io.Reader, opt convert.Options) (*convert.Result, error) {
		s, err := convert.QueueSnapshot(r, opt)
		if err != nil {
			return nil, err
		}
		if s.Report.Format != form {
			return nil, &convert.FormatError{Want: form, Saw: s.Report.Format, Line: 1}
		}
		return s.SWF(), nil
	}
}

type options struct {
	from     string
	out      string
	ids      string
	json     bool
	columns  bool
	progress bool
	inputs   []string
	opt      convert.Options
}

const usageHead = `usage: convert -from sacct|sacct-json|jobcomp|pbs|slurmrestd|scontrol|alibaba|gpu [flags] IN... [-o OUT.swf[.gz]]

Converts a scheduler accounting log, a snapshot of a Slurm queue, a pod
list of the Alibaba GPU 2023 trace, or the job table of a public GPU
cluster trace (SenseTime Helios, Shanghai AI Lab Acme, Microsoft Philly,
or Alibaba PAI 2020's pai_job_table.csv and pai_task_table.csv given
together; or an HPC centre's job table: MIT SuperCloud's slurm-log.csv,
an ALCF job log, or any table with a header line read by -colmap;
-from gpu tells which) (plain or gzip; '-' is standard input)
to SWF, on standard output or in OUT (gzip
when it ends in .gz), and reports what it wrote and skipped on standard
error (with -json, on standard output). An input in another format, or of
which no record is readable, is an error (exit 1) that names what it is.

`

func parse(args []string, stdout, stderr io.Writer) (options, error) {
	var o options
	var tz, limits, now, colmap string
	fs := cli.NewFlagSet("convert")
	fs.StringVar(&o.from, "from", "", "input format: sacct (--parsable2), sacct-json, jobcomp (jobcomp/filetxt), pbs; "+
		"or a queue snapshot: slurmrestd (GET /slurm/v0.0.XX/jobs, squeue --json), scontrol (scontrol show job [-o]); "+
		"or alibaba (a pod list of the Alibaba GPU 2023 trace, openb_pod_list_*.csv); "+
		"or gpu (a GPU cluster trace's job table: Helios cluster_log.csv, Acme trace_seren.csv or trace_kalos.csv, Philly cluster_job_log, "+
		"or Alibaba PAI 2020's pai_job_table.csv and pai_task_table.csv, both given; or an HPC job table: MIT SuperCloud's slurm-log.csv, "+
		"an ALCF job log, any other with -colmap; which one is told from the input)")
	fs.StringVar(&now, "now", "", "moment of a queue snapshot: `TIME` as epoch seconds or RFC 3339 (default: the latest the input shows)")
	fs.StringVar(&o.out, "o", "", "write the SWF trace to `FILE` (gzip if it ends in .gz; default standard output)")
	fs.StringVar(&o.ids, "ids", "", "write \"SWF-job-number scheduler-id\" lines to `FILE` (an id of a character that is not printable, or beginning with a quote, is written quoted with Go's escapes)")
	fs.BoolVar(&o.json, "json", false, "print the report as one JSON object on standard output (needs -o)")
	fs.BoolVar(&o.columns, "columns", false, "print the sacct --format column set and exit")
	fs.StringVar(&tz, "tz", "Local", "time zone of textual timestamps: `ZONE` name, UTC or Local (sacct with SLURM_TIME_FORMAT=%s needs none); "+
		"with -from gpu the default is UTC, a published trace's times being none of this machine's (Helios: Asia/Shanghai, Philly: America/Los_Angeles)")
	fs.StringVar(&limits, "partition-limit", "", "time limits for jobs with Partition_Limit: `NAME=MINUTES[,NAME=MINUTES...]`")
	fs.StringVar(&colmap, "colmap", "", "with -from gpu: read any job table with a header line (comma or tab separated) by its columns: "+
		"`ROLE=COLUMN[,ROLE=COLUMN...]`, roles id, submit (needed), start, end, runtime, limit (seconds; COLUMN:min or COLUMN:h for other units), "+
		"procs, reqprocs, nodes, reqnodes, gpus, state (Slurm's words or N:M exit codes; COLUMN:slurmdb for Slurm's state numbers), exit, "+
		"user, group, queue, name, reqmem, usedmem (the job's memory; a unit in the value, else COLUMN:GB and the like, else MiB; "+
		"COLUMN:GB/node or COLUMN:MB/proc per node or processor) (convert.Options.ColumnMap); a COLUMN holding a comma in double quotes, \"\" for a quote inside, "+
		"a unit after them: limit=\"Wall, req\":min")
	fs.Int64Var(&o.opt.CoresPerNode, "cores-per-node", 0, "with -from gpu: cores of a node, for a job table that gives nodes but not cores "+
		"(an ALCF log without CORES_USED, a -colmap without procs): processors are nodes x N; without it such jobs' processors are -1, counted")
	fs.Int64Var(&o.opt.MaxProcs, "procs", 0, "machine size in processors, for the header's MaxProcs")
	fs.StringVar(&o.opt.Computer, "computer", "", "the header's Computer")
	fs.StringVar(&o.opt.Installation, "installation", "", "the header's Installation")
	fs.BoolVar(&o.opt.HideNames, "hide-names", false, "leave user, group and job names out of the header")
	fs.BoolVar(&o.opt.Accounts, "accounts", false, "Slurm logs and snapshots: the job's account in Group (field 13) instead of its Unix group, "+
		"its QOS in Partition (field 16), named in the header's Account and Partition lines (for sched/slurm's fair share and QOS)")
	fs.BoolVar(&o.opt.Strict, "strict", false, "stop at the first malformed record or field instead of skipping and counting it")
	fs.BoolVar(&o.progress, "progress", progress.IsTerminal(stderr), "progress bar on stderr for runs longer than a second (default: when stderr is a terminal)")
	pos, err := cli.ParseArgs(fs, args, usageHead, stdout)
	if err != nil {
		return o, err
	}
	if o.columns {
		return o, nil
	}
	if _, ok := formats[o.from]; !ok {
		return o, cli.UsageError{Msg: fmt.Sprintf("-from %q: want %s", o.from, formatList)}
	}
	if len(pos) == 0 {
		return o, cli.UsageError{Msg: "missing input (usage: convert -from FORMAT IN... [-o OUT]; '-' reads standard input)"}
	}
	if slices.Contains(pos, "-") && len(pos) > 1 {
		return o, cli.UsageError{Msg: "'-' (standard input) must be the only input"}
	}
	if (o.from == "sacct-json" || o.from == "slurmrestd" || o.from == "scontrol") && len(pos) > 1 {
		return o, cli.UsageError{Msg: "-from " + o.from + " reads one document (one JSON document or one snapshot): give one input"}
	}
	if o.opt.Accounts && (o.from == "pbs" || o.from == "alibaba" || o.from == "gpu") {
		return o, cli.UsageError{Msg: "-accounts reads Slurm's accounts and QOS: it needs -from sacct, sacct-json, jobcomp, slurmrestd or scontrol"}
	}
	if (colmap != "" || o.opt.CoresPerNode != 0) && o.from != "gpu" {
		return o, cli.UsageError{Msg: "-colmap and -cores-per-node read job tables: they need -from gpu"}
	}
	if colmap != "" {
		if o.opt.ColumnMap, err = columnMap(colmap); err != nil {
			return o, cli.UsageError{Msg: fmt.Sprintf("-colmap %q: %v", colmap, err)}
		}
	}
	if now != "" {
		if o.from != "slurmrestd" && o.from != "scontrol" {
			return o, cli.UsageError{Msg: "-now is the moment of a queue snapshot: it needs -from slurmrestd or scontrol"}
		}
		if o.opt.Now, err = parseNow(now); err != nil {
			return o, cli.UsageError{Msg: fmt.Sprintf("-now %q: %v", now, err)}
		}
	}
	o.inputs = pos
	if o.out == "-" {
		o.out = "" // standard output, the default: it made a file named "-"
	}
	if err := cli.DashOutput("-ids", o.ids, "standard output carries the trace or the report"); err != nil {
		return o, err
	}
	// An output naming an input truncated it (-o LOG LOG: the log became
	// its own SWF); -o and -ids naming one file wrote both into it.
	for _, out := range []struct{ flag, path string }{{"-o", o.out}, {"-ids", o.ids}} {
		if out.path == "" {
			continue
		}
		if err := cli.NotInput(out.flag, out.path, o.inputs...); err != nil {
			return o, err
		}
	}
	if err := cli.DistinctOutputs("-o", o.out, "-ids", o.ids); err != nil {
		return o, err
	}
	if o.json && o.out == "" {
		return o, cli.UsageError{Msg: "-json prints the report on standard output: give the SWF file with -o"}
	}
	progressGiven := false
	fs.Visit(func(f *flag.Flag) { progressGiven = progressGiven || f.Name == "progress" })
	if o.out == "" && !progressGiven && cli.Terminal(stdout) {
		o.progress = false // the trace goes to the terminal: the bar would cut its lines
	}
	tzGiven := false
	fs.Visit(func(f *flag.Flag) { tzGiven = tzGiven || f.Name == "tz" })
	if o.from == "gpu" && !tzGiven {
		tz = "UTC" // (Local would make the output depend on the machine, and on its daylight-saving changes)
	}
	if o.opt.Location, err = location(tz); err != nil {
		return o, cli.UsageError{Msg: fmt.Sprintf("-tz %q: %v", tz, err)}
	}
	if o.opt.PartitionLimits, err = partitionLimits(limits); err != nil {
		return o, cli.UsageError{Msg: fmt.Sprintf("-partition-limit %q: %v", limits, err)}
	}
	// The numbers of -procs and -cores-per-node are checked by flag first:
	// Validate names the library's fields ("MaxProcs -5 is negative"),
	// not the flag the user typed.
	for _, f := range []struct {
		flag string
		v    int64
		opt  convert.Options
	}{
		{"-procs", o.opt.MaxProcs, convert.Options{MaxProcs: o.opt.MaxProcs}},
		{"-cores-per-node", o.opt.CoresPerNode, convert.Options{CoresPerNode: o.opt.CoresPerNode}},
	} {
		if err := f.opt.Validate(); err != nil {
			return o, cli.Usagef("%s %d: %s", f.flag, f.v, strings.TrimPrefix(err.Error(), "convert: "))
		}
	}
	if err := o.opt.Validate(); err != nil {
		return o, cli.UsageError{Msg: err.Error()}
	}
	return o, nil
}

// location resolves -tz. "Local" becomes the zone's name where the system
// says it (TZ, /etc/localtime), so that the header names a real zone.
func location(name string) (*time.Location, error) {
	if name != "Local" {
		return time.LoadLocation(name)
	}
	if tz := os.Getenv("TZ"); tz != "" {
		if l, err := time.LoadLocation(strings.TrimPrefix(tz, ":")); err == nil {
			return l, nil
		}
	}
	if target, err := os.Readlink("/etc/localtime"); err == nil {
		if _, zone, ok := strings.Cut(target, "zoneinfo/"); ok {
			if l, err := time.LoadLocation(zone); err == nil {
				return l, nil
			}
		}
	}
	return time.Local, nil
}

// parseNow reads -now: epoch seconds or RFC 3339.
func parseNow(s string) (time.Time, error) {
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		if n <= 0 || n > 1<<33 {
			return time.Time{}, errors.New("epoch seconds out of range")
		}
		return time.Unix(n, 0), nil
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return time.Time{}, errors.New("want epoch seconds or an RFC 3339 time (2024-03-01T08:10:00Z)")
	}
	return t, nil
}

// columnMap reads -colmap: ROLE=COLUMN pairs, each role once (the
// library checks the roles and the columns). A COLUMN holding a comma is
// written in double quotes, CSV's way ("" for a quote inside), a unit
// after them: limit="Wall, req":min. The quotes go to the library, for
// which a quoted name is the name as written (no suffix cut from it).
func columnMap(s string) (map[string]string, error) {
	out := map[string]string{}
	for s != "" {
		role, rest, ok := strings.Cut(s, "=")
		item := role
		if i := strings.IndexByte(role, ','); i >= 0 {
			ok, item = false, role[:i] // ("submit,start=S": the first item has no '=')
		}
		role = strings.ToLower(strings.TrimSpace(role))
		if !ok || role == "" {
			return nil, fmt.Errorf("%q: want ROLE=COLUMN (a column with a comma in double quotes)", item)
		}
		col, tail, more, err := colValue(rest)
		if err != nil {
			return nil, fmt.Errorf("%s=%s: %v", role, rest, err)
		}
		if more && strings.TrimSpace(tail) == "" {
			return nil, errors.New("a comma at the end: want ROLE=COLUMN after it")
		}
		if strings.TrimSpace(col) == "" || strings.TrimSpace(col) == `""` {
			return nil, fmt.Errorf("%q: want ROLE=COLUMN", role+"="+col)
		}
		if _, dup := out[role]; dup {
			return nil, fmt.Errorf("%q: role %s given twice", role+"="+col, role)
		}
		out[role], s = strings.TrimSpace(col), tail
	}
	return out, nil
}

// colValue cuts -colmap's COLUMN from s: up to the next comma, or, when
// it begins with a double quote, past the closing one (a doubled quote
// is one inside) and on to the next comma. more says a comma followed,
// tail what follows it.
func colValue(s string) (col, tail string, more bool, err error) {
	i := len(s) - len(strings.TrimLeft(s, " "))
	if i < len(s) && s[i] == '"' {
		i++
		for i < len(s) && (s[i] != '"' || i+1 < len(s) && s[i+1] == '"') {
			if s[i] == '"' {
				i++ // ("": a quote inside)
			}
			i++
		}
		if i >= len(s) {
			return "", "", false, errors.New("no closing double quote")
		}
	}
	if k := strings.IndexByte(s[i:], ','); k >= 0 {
		return s[:i+k], s[i+k+1:], true, nil
	}
	return s, "", false, nil
}

func partitionLimits(s string) (map[string]int64, error) {
	if s == "" {
		return nil, nil
	}
	out := map[string]int64{}
	for item := range strings.SplitSeq(s, ",") {
		name, min, ok := strings.Cut(item, "=")
		m, err := strconv.ParseInt(min, 10, 64)
		if !ok || name == "" || err != nil || m <= 0 {
			return nil, fmt.Errorf("%q: want NAME=MINUTES, a positive number", item)
		}
		// The bound is the library's (Options.Validate: 230 years, the
		// longest limit it reads; 2^30 minutes passed here and was every
		// such job's requested time), not a copy of it here.
		sec := int64(math.MaxInt64) // (minutes past it in seconds: past the bound too)
		if m <= math.MaxInt64/60 {
			sec = m * 60
		}
		if err := (&convert.Options{PartitionLimits: map[string]int64{name: sec}}).Validate(); err != nil {
			return nil, fmt.Errorf("%q: %d minutes: %s", item, m, strings.TrimPrefix(err.Error(), "convert: "))
		}
		if _, dup := out[name]; dup {
			// "a=5,a=6" kept 6 without a word: which one was meant?
			return nil, fmt.Errorf("%q: partition %s given twice", item, name)
		}
		out[name] = sec
	}
	return out, nil
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	o, err := parse(args, stdout, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return cli.ExitOK
	}
	if err != nil { // a usage error: pointing to -h, as cli.Status does for every other command
		fmt.Fprintln(stderr, "convert:", once(err.Error()), "(-h for help)")
		return cli.ExitUsage
	}
	if o.columns {
		fmt.Fprintln(stdout, convert.SacctFormat)
		return cli.ExitOK
	}
	res, err := convertInputs(o, stdin, stderr)
	if err != nil {
		// Not once again: convertInputs's errors begin with the input's
		// name (inFile said the library's "convert: " once), and an
		// input named convert lost its name ("convert: sacct line 1: …").
		msg := err.Error()
		if fe := (*convert.FormatError)(nil); errors.As(err, &fe) {
			if _, ok := formats[fe.Saw]; ok {
				msg += "; run with -from " + fe.Saw
			} else if fe.Saw == "helios" || fe.Saw == "acme" || fe.Saw == "philly" || fe.Saw == "pai" || fe.Saw == "supercloud" || fe.Saw == "alcf" {
				msg += "; run with -from gpu" // (one -from reads the three, told apart from the input)
			} else {
				// The command's list, not the library's too: it said both,
				// and the library's names nodes, which no -from reads.
				if i := strings.LastIndex(msg, "; the formats read are "); i >= 0 {
					msg = msg[:i]
				}
				msg += "; -from takes " + formatList
			}
		}
		fmt.Fprintln(stderr, "convert:", msg)
		return cli.ExitError
	}
	if err := writeOutputs(o, res, stdout); err != nil {
		fmt.Fprintln(stderr, "convert:", err)
		return cli.ExitError
	}
	if o.json {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		// The report's own fields, and the warning the text report
		// prints (a script reading exit 0 took "jobs": 0 for a log read).
		rep := struct {
			*convert.Report
			Warnings []string `json:"warnings,omitempty"`
		}{Report: &res.Report}
		if res.Report.Jobs == 0 {
			rep.Warnings = []string{noJobWarning}
		}
		if err := enc.Encode(rep); err != nil {
			fmt.Fprintln(stderr, "convert:", err)
			return cli.ExitError
		}
		return cli.ExitOK
	}
	printReport(stderr, res, o)
	return cli.ExitOK
}

// convertInputs reads the inputs as one stream (gzip files are
// decompressed one by one, so that concatenated daily PBS files work).
// Standard input goes the same way as a file: one decompression, one
// check of its ends, and one search for a damaged gzip stream's error.
func convertInputs(o options, stdin io.Reader, stderr io.Writer) (*convert.Result, error) {
	bar := progress.New(stderr, o.progress, 1)
	defer bar.Done()
	bar.Stage("convert", 1)
	var total int64
	for _, p := range o.inputs {
		if p == "-" {
			continue
		}
		st, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if st.IsDir() {
			return nil, fmt.Errorf("%s: is a directory, not a log", p)
		}
		total += st.Size()
	}
	pr, pw := io.Pipe()
	zeros := make([]int64, len(o.inputs)) // zero bytes after each file's last gzip member
	copied := make(chan struct{})
	var st copyState
	go func() {
		defer close(copied)
		var done int64
		for i, p := range o.inputs {
			if !st.next() {
				pw.Close() // the conversion failed: a later input is not its cause
				return
			}
			z, err := copyInput(pw, p, stdin, o.from, &st, func(n int64) {
				if total > 0 { // (standard input's size is not known)
					done += n
					bar.Set(float64(done) / float64(total))
				}
			})
			if err != nil {
				st.failed(err)
				pw.CloseWithError(err)
				return
			}
			zeros[i] = z
		}
		pw.Close()
	}()
	res, err := formats[o.from](pr, o.opt)
	if err != nil && !errors.As(err, new(inputError)) {
		if len(o.inputs) > 1 {
			err = inFile{inputsName(o.inputs), err} // (its line counts across the files)
		}
		err = st.damaged(pr, err)
	}
	pr.CloseWithError(io.ErrClosedPipe) // stop the copier if conversion stopped early
	if err == nil {
		// zeros is the copier's until it ends. Not waited for on an
		// error: it may be blocked reading an input that stalls (a named
		// pipe) and ends only at its next write; the command exits.
		<-copied
	}
	if err != nil {
		if errors.As(err, new(damagedError)) {
			return nil, err // (it names its file)
		}
		if ie := (inputError{}); errors.As(err, &ie) {
			// The input's own error, which names its file, alone: the
			// JSON readers wrapped it in the line they had reached
			// ("convert: convert: sacct-json line 5: FILE: gzip data
			// truncated"), which the text readers do not.
			return nil, ie
		}
		if errors.As(err, new(inFile)) {
			return nil, err // (it names its file)
		}
		return nil, inFile{inputsName(o.inputs), err}
	}
	for i, z := range zeros {
		if z > 0 {
			// The note swf/convert writes when it decompresses, with the
			// file's name when there are several.
			n := fmt.Sprintf("%d zero bytes after the last gzip member ignored", z)
			if len(o.inputs) > 1 {
				n = o.inputs[i] + ": " + n
			}
			res.Report.Notes = append(res.Report.Notes, n)
		}
	}
	return res, nil
}

// inputsName names the inputs in a conversion's error.
func inputsName(inputs []string) string {
	switch {
	case len(inputs) == 1 && inputs[0] == "-":
		return "standard input"
	case len(inputs) == 1:
		return inputs[0]
	}
	return strings.Join(inputs, " ") + " (read as one log; lines count across the files)"
}

// inFile is a conversion's error after the input it came from. swf/convert's
// errors begin with their package's name, as Go's do ("json: …"), which is
// the command's, said at the start of the line: it read "convert: log:
// convert: sacct-json line 1: …".
type inFile struct {
	name string
	err  error
}

func (e inFile) Error() string { return e.name + ": " + once(e.err.Error()) }
func (e inFile) Unwrap() error { return e.err }

// once is a message of swf/convert without its "convert: ", which the
// command's own prefix says ("convert: convert: Now … is before 1990"),
// nor the "input: " of its gzip errors (the command decompresses every
// input itself, standard input too, but a library error may say it), which
// inFile's name says.
func once(msg string) string {
	if m, ok := strings.CutPrefix(msg, "convert: input: "); ok {
		return m
	}
	return strings.TrimPrefix(msg, "convert: ")
}

// inputError is an error reading one input file (gzip data truncated or
// corrupt, a read error); it begins with the file's name.
type inputError struct{ err error }

func (e inputError) Error() string { return e.err.Error() }
func (e inputError) Unwrap() error { return e.err }

// copyInput copies one file, decompressed if it is gzip, to w, with a
// newline at its end if it lacks one, and returns how many zero bytes
// followed its last gzip member. It decompresses as swf.Open and
// swf/convert do (internal/inflate): zero padding after the last member
// (as tape and dd leave) is ignored and counted, and an error says
// "truncated" or "corrupt" (compress/gzip refused the padding as an
// invalid header and called trailing garbage an unexpected EOF).
//
// A file that is UTF-16 text (its byte-order mark first, or its first
// line with a NUL beside every other byte) is refused as
// swf/convert refuses one input, and a UTF-8 byte-order mark is dropped as
// swf/convert drops one: the library sees the stream's start only,
// and a second file in UTF-16 read as malformed lines ("header lacks
// JobID", or every line skipped) that did not say why.
//
// path "-" is stdin, named "standard input". st learns whether the input
// is gzip, for a failed conversion's search for its damage.
func copyInput(w io.Writer, path string, stdin io.Reader, from string, st *copyState, read func(int64)) (int64, error) {
	in := stdin
	if path == "-" {
		path = "standard input"
	} else {
		f, err := os.Open(path)
		if err != nil {
			return 0, err
		}
		defer f.Close()
		in = f
	}
	r, closers, err := inflate.Reader(&counting{in, read}, path)
	if err != nil {
		return 0, inputError{err}
	}
	st.opened(len(closers) > 0)
	defer func() {
		for i := len(closers) - 1; i >= 0; i-- {
			closers[i].Close()
		}
	}()
	last := byte('\n')
	buf := make([]byte, 64<<10)
	// The first three bytes, read whole before anything is written (a
	// Read may return one byte).
	n, err := io.ReadFull(r, buf[:3])
	if err == io.ErrUnexpectedEOF || err == io.EOF {
		err = nil // a file of 0 to 2 bytes: the loop's Read sees its end
	}
	if n >= 2 && (buf[0] == 0xff && buf[1] == 0xfe || buf[0] == 0xfe && buf[1] == 0xff) {
		return 0, inputError{inFile{path, &convert.FormatError{Want: from, Saw: "utf-16", Line: 1}}}
	}
	if n == 3 && string(buf[:3]) == "\xef\xbb\xbf" {
		// A UTF-8 byte-order mark, which swf/convert drops at the
		// stream's start only: in a second file it began a record (a
		// PBS line "malformed", sacct's header "\ufeffJobID").
		n = 0
	}
	if err == nil {
		// The first line, as far as one more read brings it: UTF-16
		// without a byte-order mark (a NUL beside every other byte, the
		// rule swf/convert's sniff applies to the stream's start) in a
		// second file was read as malformed lines, exit 0.
		var m int
		m, err = r.Read(buf[n:])
		n += m
		first, _, _ := bytes.Cut(buf[:n], []byte("\n"))
		if utf16text.Line(strings.TrimRight(string(first), "\r\x00")) {
			return 0, inputError{inFile{path, &convert.FormatError{Want: from, Saw: "utf-16", Line: 1}}}
		}
	}
	for {
		if err == nil && n == 0 {
			n, err = r.Read(buf)
		}
		if n > 0 {
			last = buf[n-1]
			if _, werr := w.Write(buf[:n]); werr != nil {
				return 0, werr
			}
			n = 0
		}
		if err == io.EOF {
			err = nil
			break
		}
		if err != nil {
			if !strings.HasPrefix(err.Error(), path+":") {
				err = fmt.Errorf("%s: %w", path, err)
			}
			return 0, inputError{err}
		}
	}
	if last != '\n' {
		_, err = w.Write([]byte{'\n'})
	}
	return inflate.TrailingZeros(r), err
}

// idText is a scheduler's job id as an -ids line writes it: as it is, or
// quoted with Go's escapes ("...") when it holds a character that is not
// printable or begins with a quote. A JSON log's id is any string: Philly's
// "app\n2 evil" wrote a line "2 evil" that mapped job 2 to another id.
func idText(id string) string {
	if cli.Printable(id) != id || strings.HasPrefix(id, `"`) {
		return strconv.Quote(id)
	}
	return id
}

type counting struct {
	r    io.Reader
	read func(int64)
}

func (c *counting) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.read(int64(n))
	return n, err
}

func writeOutputs(o options, res *convert.Result, stdout io.Writer) error {
	if err := writeFile(o.out, stdout, func(w io.Writer) error {
		return swf.WriteAll(w, res.Header, res.Jobs)
	}); err != nil {
		return err
	}
	if o.ids == "" {
		return nil
	}
	return writeFile(o.ids, nil, func(w io.Writer) error {
		for k, id := range res.IDs {
			if _, err := fmt.Fprintf(w, "%d %s\n", k+1, idText(id)); err != nil {
				return err
			}
		}
		return nil
	})
}

// writeFile writes with write to path (gzip if it ends in .gz), or to
// stdout when path is empty. On failure the partial file is removed (a
// regular file only, never a device named as -o: cli.RemovePartial), so a
// failed conversion leaves no half log behind.
func writeFile(path string, stdout io.Writer, write func(io.Writer) error) error {
	if path == "" {
		return write(stdout)
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	var w io.Writer = f
	var zw *gzip.Writer
	if strings.HasSuffix(path, ".gz") {
		zw = gzip.NewWriter(f)
		w = zw
	}
	err = write(w)
	if zw != nil {
		err = errors.Join(err, zw.Close())
	}
	if err = errors.Join(err, f.Close()); err != nil {
		cli.RemovePartial(path)
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// noJobWarning is said of a conversion that wrote no job, in both reports.
const noJobWarning = "no job written: the trace is empty (every record is skipped below, or there was none)"

func printReport(w io.Writer, res *convert.Result, o options) {
	r := res.Report
	where := "standard output"
	if o.out != "" {
		where = filepath.Base(o.out)
	}
	fmt.Fprintf(w, "%s: %d records read, %d jobs written to %s", r.Format, r.Records, r.Jobs, where)
	switch {
	case r.Steps > 0 && r.Format == "pai":
		fmt.Fprintf(w, ", %d tasks joined to their jobs", r.Steps) // (Report.Steps: pai_task_table's rows)
	case r.Steps > 0:
		fmt.Fprintf(w, ", %d job steps", r.Steps)
	}
	if r.Requeued > 0 {
		fmt.Fprintf(w, ", %d earlier attempts of requeued jobs", r.Requeued)
	}
	fmt.Fprintln(w)
	if r.Jobs == 0 {
		// An empty trace is a result no simulator takes: say why at once.
		fmt.Fprintln(w, "warning:", noJobWarning)
	}
	printCounts(w, "final states", r.States)
	printCounts(w, "skipped", r.Skipped)
	printCounts(w, "jobs with anomalies", r.Anomalies)
	for _, n := range r.Notes {
		fmt.Fprintln(w, "note:", cli.Printable(n))
	}
	for i, e := range r.Errors {
		if i == 5 {
			fmt.Fprintf(w, "... %d more errors (-json lists %d)\n", len(r.Errors)-5, len(r.Errors))
			break
		}
		fmt.Fprintln(w, "error:", e)
	}
}

func printCounts(w io.Writer, what string, m map[string]int) {
	if len(m) == 0 {
		return
	}
	fmt.Fprintf(w, "%s:\n", what)
	for _, k := range slices.Sorted(maps.Keys(m)) {
		fmt.Fprintf(w, "  %6d  %s\n", m[k], cli.Printable(k))
	}
}

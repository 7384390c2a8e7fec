package convert

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/batchq/batchq/internal/textcheck"
	"github.com/batchq/batchq/internal/utf16text"
)

// FormatError is an input that is not in the format asked for, so that
// nothing of it was converted: either another format this package reads or
// knows (Saw names it: call the function that reads it, or export the log
// again in the format wanted), or no format it recognises (Saw is empty:
// the input is not a log of the kind asked for at all). Use errors.As.
type FormatError struct {
	// Want is the format asked for: "sacct", "sacct-json", "jobcomp", "pbs",
	// "slurmrestd or scontrol" (QueueSnapshot), "alibaba", "nodes" or
	// "gpu" (GPUTrace).
	Want string `json:"want"`
	// Saw is the format the input looks like: one of the above,
	// "slurmrestd" (its GET /slurm/v0.0.XX/jobs response, or squeue
	// --json), "scontrol" (scontrol show job), "alibaba-nodes" (the
	// Alibaba trace's node list), "helios", "acme", "philly", "pai" (the
	// job tables GPUTrace reads; pai: a row or header of the Alibaba PAI
	// 2020 trace's pai_job_table or pai_task_table), "supercloud", "alcf"
	// (the HPC job tables GPUTrace reads: a Slurm database job table as
	// MIT SuperCloud's slurm-log.csv, an ALCF job log), "pai-other" (another
	// table of that trace), "pai-joined" (a header of a table joined from
	// its tables), "sacct-fixed" (sacct
	// without --parsable2), "squeue", "swf" (an SWF trace), "json" (JSON of
	// another kind), "utf-16" (UTF-16 text: its byte-order mark, or a NUL
	// beside every other byte of the first line), "binary" (a first line
	// of bytes that text has not, control bytes or NULs, or a PNG's, a
	// PDF's, a GIF's or an SQLite database's signature; Windows-1252 text,
	// 0x80–0x9f included, is text),
	// "tar" (a tar archive, by its header's magic: extract it first),
	// "cr"
	// (text whose lines end in CR alone); ""
	// when none.
	Saw string `json:"saw,omitempty"`
	// Line and Sample are the input's first non-blank line and its first
	// bytes (about 64); Line 0 when its first 64 KiB are blank (Sample
	// says so unless the input is empty).
	Line   int    `json:"line"`
	Sample string `json:"sample,omitempty"`
	// Malformed counts the records read when every one was malformed
	// (Saw empty), First is the first one's error: the input may be of
	// the format asked for but cut or damaged.
	Malformed int         `json:"malformed,omitempty"`
	First     *ParseError `json:"first,omitempty"`
}

func (e *FormatError) Error() string {
	want := formatNames[e.Want]
	if want == "" {
		want = e.Want
	}
	if e.Saw == "" && e.First != nil {
		// (the first's own "convert: " prefix said twice in one message)
		return fmt.Sprintf("convert: %s: the input is not %s, or a damaged one: none of its %d records is readable (first: %s); the formats read are %s",
			e.Want, want, e.Malformed, strings.TrimPrefix(e.First.Error(), "convert: "), formatList)
	}
	if e.Saw == "" && e.Line == 0 && e.Sample == "" {
		return fmt.Sprintf("convert: %s: the input is empty (no line but blank ones), not %s", e.Want, want)
	}
	if e.Saw == "" {
		return fmt.Sprintf("convert: %s: the input is not %s (line %d: %q); the formats read are %s",
			e.Want, want, e.Line, e.Sample, formatList)
	}
	msg := fmt.Sprintf("convert: %s: the input is %s, not %s", e.Want, formatNames[e.Saw], want)
	if readsWith[e.Saw] != "" {
		msg += "; it reads as format " + e.Saw + " (convert." + readsWith[e.Saw] + ")"
	} else {
		msg += "; the formats read are " + formatList
	}
	return msg
}

// formatNames says what each format is, for messages.
var formatNames = map[string]string{
	"sacct":                  "sacct --parsable2 output",
	"sacct-json":             "sacct --json output",
	"jobcomp":                "a Slurm jobcomp/filetxt file",
	"pbs":                    "a PBS/Torque accounting log",
	"slurmrestd":             "slurmrestd's GET /slurm/v0.0.XX/jobs response (or squeue --json): a live queue snapshot",
	"scontrol":               "scontrol show job output: a live queue snapshot",
	"slurmrestd or scontrol": "a live queue snapshot (slurmrestd's /jobs response or scontrol show job output)",
	"sacct-fixed":            "sacct output without --parsable2 (fixed-width columns, which cut long values)",
	"squeue":                 "squeue's table (it lacks submit times and limits; use scontrol show job or squeue --json)",
	"swf":                    "an SWF trace (already converted)",
	"json":                   "JSON of another kind",
	"alibaba":                "a pod list of the Alibaba GPU 2023 trace (openb_pod_list_*.csv)",
	"alibaba-nodes":          "a node list of the Alibaba GPU 2023 trace (openb_node_list_*.csv)",
	"nodes":                  "a batchq nodes file (kind,count,cores,...)",
	"gpu":                    "a GPU cluster trace's job table (Helios cluster_log.csv, Acme trace_*.csv, Philly cluster_job_log, Alibaba PAI 2020 pai_job_table.csv with pai_task_table.csv)",
	"helios":                 "a SenseTime Helios job table (cluster_log.csv)",
	"acme":                   "a Shanghai AI Lab Acme job table (trace_seren.csv, trace_kalos.csv)",
	"philly":                 "a Microsoft Philly job log (cluster_job_log)",
	"pai":                    "a table of the Alibaba PAI 2020 trace (pai_job_table.csv, pai_task_table.csv)",
	"supercloud":             "a Slurm accounting database job table (MIT SuperCloud's slurm-log.csv: id_job, time_submit, ...)",
	"alcf":                   "an ALCF job log (DIM_JOB_COMPOSITE: QUEUED_TIMESTAMP, START_TIMESTAMP, ...)",
	"table":                  "a job table read by a column map (Options.ColumnMap)",
	"pai-other":              "a table of the Alibaba PAI 2020 trace other than pai_job_table and pai_task_table (which -from gpu reads, given together)",
	"pai-joined":             "a table joined from the Alibaba PAI 2020 trace's (a header naming job_name and plan_gpu or inst_num); give pai_job_table.csv and pai_task_table.csv as published",
	"binary":                 "binary data, not text (is it the right file?)",
	"tar":                    "a tar archive (extract its files first: tar -xzf FILE.tar.gz)",
	"cr":                     "text with lines ended by CR alone (classic Mac OS), read as one line; make them LF first: tr '\\r' '\\n'",
	"utf-16":                 "UTF-16 text (byte-order mark FF FE or FE FF, or without one a NUL beside every other byte, as an editor or Windows PowerShell's > saves it; make it UTF-8 first: iconv -f UTF-16 -t UTF-8)",
}

// readsWith names the function that reads each format.
var readsWith = map[string]string{
	"sacct": "Sacct", "sacct-json": "SacctJSON", "jobcomp": "Jobcomp", "pbs": "PBS",
	"slurmrestd": "QueueSnapshot", "scontrol": "QueueSnapshot",
	"alibaba": "Alibaba", "alibaba-nodes": "Nodes", "nodes": "Nodes",
	"helios": "GPUTrace", "acme": "GPUTrace", "philly": "GPUTrace", "pai": "GPUTrace",
	"supercloud": "GPUTrace", "alcf": "GPUTrace",
}

const formatList = "sacct (--parsable2), sacct-json, jobcomp, pbs (accounting logs), slurmrestd, scontrol (queue snapshots), " +
	"alibaba (the Alibaba GPU 2023 pod list), gpu (the Helios, Acme and Philly job tables, the Alibaba PAI 2020 job and task tables, MIT SuperCloud's and ALCF's job tables, any job table by Options.ColumnMap) and nodes (a machine's nodes)"

// The patterns sniff looks for, compiled at its first call rather than
// at init: every program that imports the package (examples/simulate,
// which reads SWF without it) paid for them at start, 0.2 ms, most of the
// module's init time.
var (
	reJobState  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`"job_state"\s*:`) })
	reSubmitted = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`"submission"\s*:`) })
	reJobsKey   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`"jobs"\s*:`) })
	// Philly's jobs list "attempts" before "submitted_time": a first job
	// of many attempts may push the latter past the head sniff sees.
	rePhilly  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`"submitted_time"\s*:|"attempts"\s*:\s*\[`) })
	rePBS     = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\d\d/\d\d/\d{4} \d\d:\d\d:\d\d;[A-Z];`) })
	reSWFLine = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^\s*-?\d+(\.\d+)?(\s+-?\d+(\.\d+)?){17}\s*$`)
	})
)

// sniff tells the format of an input from its first bytes (head, at most
// sniffBytes): the format's name as in FormatError.Saw, "" when it
// recognises none, with the first non-blank line's number and its first
// bytes. It only names a format on clear marks, so that a converter never
// turns down an input of its own format.
func sniff(head []byte) (format string, line int, sample string) {
	if bytes.HasPrefix(head, []byte("\xff\xfe")) || bytes.HasPrefix(head, []byte("\xfe\xff")) {
		// UTF-16's byte-order mark: every line would read as malformed
		// (a NUL after each character), and sacct's header as lacking
		// JobID.
		return "utf-16", 1, clip(strings.ToValidUTF8(string(head[:min(len(head), 16)]), "?"))
	}
	if isTar(head) {
		// A tar archive (its header's magic): the PAI 2020 trace's
		// tables come as .tar.gz, which the gzip layer opens but only
		// tar extracts. It was "binary data".
		return "tar", 1, clip(strings.ToValidUTF8(strings.TrimRight(string(head[:100]), "\x00"), "?"))
	}
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	rest := head
	for len(rest) > 0 {
		line++
		l := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			l, rest = rest[:i], rest[i+1:]
		} else {
			rest = nil
		}
		if t := bytes.TrimSpace(l); len(t) > 0 {
			sample = clip(strings.ToValidUTF8(string(t), "?"))
			if bytes.IndexByte(t, 0) >= 0 && utf16text.Line(string(t)) {
				// UTF-16 without a byte-order mark (a NUL beside every
				// other byte, the rule sched/slurm's readers use): a
				// nodes file was "not a node list", a sacct file one
				// without JobID.
				return "utf-16", line, sample
			}
			if textcheck.FirstLine(string(t)) {
				// Binary data (a PNG, a zip, a PDF given by mistake):
				// every record malformed, "a damaged one?".
				return "binary", line, sample
			}
			if len(rest) == 0 && t[0] != '{' && t[0] != '[' && bytes.IndexByte(t, '\r') >= 0 {
				// Lines ended by CR alone, in the last line of the head:
				// the whole file read as one line, a sacct header and no
				// record, "0 jobs" and no reason. (len, not nil: a final
				// newline, which examples/convert's copier adds, left it
				// unnamed.)
				return "cr", line, sample
			}
			return sniffFrom(string(t), l, head), line, sample
		}
	}
	return "", 0, ""
}

// isTar reports whether head begins with a tar header: its magic at 257,
// POSIX's "ustar\x00" or GNU's "ustar  \x00". The NUL matters: text with
// "ustar" at byte 257 (a user "gustar") is no archive.
func isTar(head []byte) bool {
	return len(head) >= 263 && string(head[257:263]) == "ustar\x00" ||
		len(head) >= 265 && string(head[257:265]) == "ustar  \x00"
}

// sniffFrom classifies by the first non-blank line first (trimmed; raw as
// read), then by the whole head.
func sniffFrom(first string, raw, head []byte) string {
	switch {
	case first[0] == '{' || first[0] == '[':
		// Slurm's job lists (sacct --json, slurmrestd) have a "jobs" key:
		// a whole document (shorter than the head) without one is JSON
		// of another kind, whatever job keys it holds. A bare job object
		// (Slurm-web's own API's) was "sacct --json output" to -from
		// slurmrestd, whose advice -from sacct-json then refused.
		jobs := len(head) >= sniffBytes || reJobsKey().Match(head)
		switch {
		case jobs && reJobState().Match(head):
			return "slurmrestd"
		case jobs && reSubmitted().Match(head):
			return "sacct-json"
		case rePhilly().Match(head):
			return "philly"
		}
		return "json"
	case strings.HasPrefix(first, "JobId="):
		// scontrol show job (one record per line with -o, else a first line
		// "JobId=1 JobName=x" and indented lines) prints Priority, Reason and
		// RunTime, which a jobcomp line never has.
		rec := head
		if i := bytes.Index(head, []byte("\n\n")); i >= 0 {
			rec = head[:i]
		}
		for _, k := range []string{" Priority=", " RunTime=", " Reason="} {
			if bytes.Contains(rec, []byte(k)) {
				return "scontrol"
			}
		}
		return "jobcomp"
	case first == "No jobs in the system":
		return "scontrol"
	case rePBS().MatchString(first):
		return "pbs"
	case strings.Contains(first, "|") && isSacctHeader(first):
		return "sacct"
	case strings.HasPrefix(first, ";"):
		// (before csvKind: an SWF header's comment naming the columns it
		// came from, "; ...,id_job,time_submit", was a SuperCloud table)
		return "swf"
	case csvKind(first) != "":
		return csvKind(first)
	case reSWFLine().MatchString(first):
		return "swf"
	case sniffPAI(first) != "":
		// (after SWF: a comment line may have commas and a status word)
		return sniffPAI(first)
	}
	f := strings.Fields(strings.ToUpper(first))
	switch {
	case len(f) >= 3 && f[0] == "JOBID" && (f[1] == "PARTITION" || f[1] == "NAME" || f[1] == "USER" || f[1] == "ST"):
		return "squeue"
	case len(f) >= 2 && (f[0] == "JOBID" || f[0] == "JOBIDRAW") && !strings.Contains(first, "|"):
		return "sacct-fixed"
	}
	return ""
}

// sniffBytes is how much of an input sniff sees.
const sniffBytes = 64 << 10

// Package swf reads and writes the Standard Workload Format of the Parallel
// Workloads Archive (Chapin et al., "Benchmarks and standards for the
// evaluation of parallel job schedulers", JSSPP 1999; the format as used in
// Tsafrir's thesis, spec sched-estmodel-sanitize §1).
//
// An SWF file is text: header comment lines "; Key: value", then one line
// per job with 18 whitespace-separated numeric fields, -1 meaning unknown.
// Reader streams jobs one at a time in O(1) memory (no allocation per
// job), Writer writes them back, and Read → Write → Read is the identity on
// the header and the jobs. A job line is converted in one pass per field;
// BenchmarkReadPlain (SDSC-BLUE from memory, 243k lines, 22.5 MB) takes
// 34–40 ms of CPU on one core, about 6M jobs/s (go test -bench ReadPlain
// -cpu 1, perf stat's task-clock, on a shared 2-core machine at load
// average 9). Open detects gzip by its magic
// bytes; its gzip errors name the file and say "truncated" or "corrupt".
//
// Parse errors are *ParseError values naming the line, the field and the
// offending text (cut to about 64 bytes). The default strict mode stops at
// the first error; Reader.Lenient skips bad lines and counts them.
//
// Real archive logs are read as they are, in either mode: lines may end in
// "\n", "\r\n" or a lone "\r"; status codes outside -1..5 are kept and
// counted per value (Stats.OtherStatus); header values that are not
// numbers, repeated keys and keys after the jobs are warnings
// (Stats.Warnings, rules on Header), never errors. Nothing is reordered:
// out-of-order submit times are only counted (Stats.OutOfOrder), and
// unknown ones (-1) apart from them (Stats.UnknownSubmit).
//
// # Demand lines
//
// What a job asks of a machine of nodes beyond its processors (Job.Demand:
// nodes, cores, memory, GPUs, GPU models, named resources, whole nodes)
// has no SWF field. It goes on a demand line, a comment line right
// before the job's line:
//
//	;= nodes=2 cores=32 mem=65536 gpus=4000 models=V100M16|V100M32 excl +license/matlab=1
//	17 3600 120 7200 64 -1 -1 64 10800 -1 1 4 -1 -1 2 -1 -1 -1
//
// ";=" and a blank start it (";=====" stays a comment). Each token is
// nodes=N, cores=N, mem=N, gpus=N (decimal counts in [0, 2^40], the
// fields of Demand in its units: gpus in thousandths of a GPU), models=
// the accepted GPU models separated by '|', the flag excl, or +NAME=N a
// named resource; any order, each at most once. Names and models are
// written with %XX for blanks, '%', '=', '|' and bytes outside printable
// ASCII. Zero amounts and empty lists are left out, so ";=" alone is a
// Demand of zeros; a job without a demand line has Demand nil.
//
// Why so: every SWF reader skips ';' lines, so a file with demands is
// still 18 fields a line to the archive's tools, to the peers' simulators
// and to awk; no companion file can drift from its jobs. The line goes
// before its job, not after, so a Reader returns each job as soon as its
// line is read, with no read-ahead (a live feed is not held back a line),
// and a file cut between a demand line and its job ends in an error, not
// in a job silently without its demand. Unknown keys are errors and
// named resources carry a '+', so that a key added later is never read as
// a resource.
//
// The contract: Writer writes a job's demand line when Demand is not nil
// (and refuses a Demand that does not validate), Reader gives it back:
// Read → Write → Read is the identity on the jobs and their demands (an
// empty GPUModels or Named reading back as nil). A demand line must be
// followed by its job line, blank lines aside: another comment or demand
// line, or the end of the file, is an error. A malformed demand line, or
// one whose Demand does not validate, is a *ParseError whose Key names
// the token's key (Field 0, wrapping ErrSyntax or ErrRange); in lenient
// mode the line is skipped and counted (Stats.Skipped) and its job read
// without it, and a malformed job line takes its demand line with it.
// Demand lines are not comments: they are not in Header.Lines nor in
// Stats.LateComments, and Stats.Demands counts the jobs that had one.
// Jobs without one cost what they did (no allocation per job).
//
// Decisions cited as S-items (S5: which size field) are those of
// docs/decisions.md's Tsafrir register.
package swf

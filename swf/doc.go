// Package swf reads and writes the Standard Workload Format of the Parallel
// Workloads Archive (Chapin et al., "Benchmarks and standards for the
// evaluation of parallel job schedulers", JSSPP 1999; the format as used in
// Tsafrir's thesis, spec sched-estmodel-sanitize §1).
//
// An SWF file is text: header comment lines "; Key: value", then one line
// per job with 18 whitespace-separated numeric fields, -1 meaning unknown.
// Reader streams jobs one at a time in O(1) memory (no allocation per
// job; 2.7–6M jobs per CPU-second by BenchmarkReadPlain, hand measurements
// of 2026-11-24 and 2026-11-30, the latter at load 5–9), Writer writes them back, and
// Read → Write → Read is the identity on the header and the jobs. Open
// detects gzip by its magic bytes; its gzip errors name the file and say
// "truncated" or "corrupt".
//
//	h, jobs, err := swf.ReadFile("KTH-SP2-1996-2.1-cln.swf.gz") // all at once
//	f, err := swf.Open(path)                                    // or a job at a time: f.Read()
//	err = swf.WriteAll(w, h, jobs)
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
// out-of-order submit times are only counted (Stats.OutOfOrder: the jobs
// submitted before the job logged before them), and unknown ones (-1)
// apart from them (Stats.UnknownSubmit). A time field written with a
// fraction ("20.5", which the definition allows) is read rounded to the
// nearest second, halves away from zero, and counted (Stats.Rounded). A
// number below -1 in another field than the status, which SWF does not
// define, is read as -1, unknown, and counted (Stats.BelowUnknown), the
// job kept, as pyss and predictsim keep it.
//
// # Demand lines
//
// What a job asks of a machine of nodes beyond its processors (Job.Demand:
// nodes, cores, memory, GPUs, GPU models, named resources, whole nodes)
// has no SWF field. It goes on a demand line, a comment line right before
// the job's line that every SWF tool skips, and Read → Write → Read keeps
// it (Demand has the format and its contract):
//
//	;= nodes=2 cores=32 mem=65536 gpus=4000 models=V100M16|V100M32 excl +license/matlab=1
//	17 3600 120 7200 64 -1 -1 64 10800 -1 1 4 -1 -1 2 -1 -1 -1
//
// Decisions cited as S-items (S5: which size field) are those of
// docs/decisions.md's Tsafrir register.
package swf

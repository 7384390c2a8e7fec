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
// Decisions cited as S-items (S5: which size field) are those of
// docs/decisions.md's Tsafrir register.
package swf

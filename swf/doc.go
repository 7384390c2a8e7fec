// Package swf reads and writes the Standard Workload Format of the Parallel
// Workloads Archive (Chapin et al., "Benchmarks and standards for the
// evaluation of parallel job schedulers", JSSPP 1999; the format as used in
// Tsafrir's thesis, spec sched-estmodel-sanitize §1).
//
// An SWF file is text: header comment lines "; Key: value", then one line
// per job with 18 whitespace-separated numeric fields, -1 meaning unknown.
// Reader streams jobs one at a time in O(1) memory (≥ 1M jobs/s, no
// allocation per job), Writer writes them back, and Read → Write → Read is
// the identity on the header and the jobs. Open detects gzip by its magic
// bytes.
//
// Parse errors are *ParseError values naming the line, the field and the
// offending text. The default strict mode stops at the first error;
// Reader.Lenient skips bad lines and counts them. Nothing is reordered:
// out-of-order submit times are only counted (Stats.OutOfOrder).
package swf

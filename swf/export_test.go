package swf

// SameParse is sameParse for the tests of package swf_test, which read the
// archive's logs (internal/tracetest imports swf).
var SameParse = sameParse

// ParseJob and ParseJobScan are parseJob and parseJobScan for
// BenchmarkParseJobKTH.
var ParseJob, ParseJobScan = parseJob, parseJobScan

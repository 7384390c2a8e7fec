package swf

// SameParse is sameParse for the tests of package swf_test, which read the
// archive's logs (internal/tracetest imports swf).
var SameParse = sameParse

// ParseJob and ParseJobScan are parseJob (with a scratch reused from
// line to line, as a Reader's) and parseJobScan for BenchmarkParseJobKTH.
var ParseJob, ParseJobScan = func() func([]byte, *Job) *ParseError {
	var s fastScratch
	return func(line []byte, j *Job) *ParseError { _, err := parseJob(line, j, &s); return err }
}(), func(line []byte, j *Job) *ParseError { _, err := parseJobScan(line, j); return err }

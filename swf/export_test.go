package swf

// SameParse is sameParse for the tests of package swf_test, which read the
// archive's logs (internal/tracetest imports swf).
var SameParse = sameParse

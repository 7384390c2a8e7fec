// Package thesislogs lists the four logs of Tsafrir's thesis Ch. 4 (Tab
// 2.1) as the examples simulate them: the archive file in ../shared/traces
// (internal/tracetest names) and the thesis's machine size (CTC on 512
// processors, S32), for examples/tsafrir and examples/sweep.
package thesislogs

import (
	"strings"

	"github.com/batchq/batchq/internal/tracetest"
)

// Log is one of the thesis's logs.
type Log struct {
	Name, File string
	P          int64 // processors simulated
	SaneJobs   int   // the thesis's sane (simulated) jobs, Tab 2.1
}

// Logs are the four logs, in the thesis's order.
var Logs = []Log{
	{"SDSC", tracetest.SDSCSP2, 128, 54053},
	{"CTC", tracetest.CTC, 512, 77222},
	{"KTH", tracetest.KTH, 100, 28490},
	{"BLUE", tracetest.SDSCBlue, 1152, 223407},
}

// Lookup finds a log by name, case-insensitively.
func Lookup(name string) (Log, bool) {
	for _, l := range Logs {
		if strings.EqualFold(l.Name, name) {
			return l, true
		}
	}
	return Log{}, false
}

// Names is "SDSC, CTC, KTH, BLUE".
func Names() string {
	var n []string
	for _, l := range Logs {
		n = append(n, l.Name)
	}
	return strings.Join(n, ", ")
}

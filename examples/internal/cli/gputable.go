package cli

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/batchq/batchq/swf/convert"
)

// gpuTables names the GPU cluster job tables that convert -from gpu reads,
// by the format swf/convert's sniffing sees in them (FormatError.Saw).
var gpuTables = map[string]string{
	"helios": "a SenseTime Helios job table",
	"acme":   "a Shanghai AI Lab Acme job table",
	"philly": "a Microsoft Philly job log",
	"pai":    "a table of the Alibaba PAI 2020 trace",
}

// GPUTable reports which GPU cluster job table head, the start of an
// input's decompressed text, begins ("helios", "acme", "philly", "pai"; "" if
// none), by swf/convert's own sniffing: the FormatError another converter
// gives for it. A command that reads SWF logs says to convert such a
// table first (ConvertFirst) rather than calling it a bad job number.
func GPUTable(head []byte) string {
	_, err := convert.Alibaba(bytes.NewReader(head), convert.Options{})
	return GPUTableSaw(err)
}

// GPUTableSaw is GPUTable for the error a converter already returned.
func GPUTableSaw(err error) string {
	var fe *convert.FormatError
	if errors.As(err, &fe) && gpuTables[fe.Saw] != "" {
		return fe.Saw
	}
	return ""
}

// ConvertFirst is the error for the GPU cluster job table table (as
// GPUTable names it) given as name where an SWF log is wanted.
func ConvertFirst(name, table string) error {
	cmd := "convert -from gpu FILE -o OUT.swf"
	if table == "pai" { // (its job's submission and its tasks are in two tables)
		cmd = "convert -from gpu pai_job_table.csv pai_task_table.csv -o OUT.swf"
	}
	return fmt.Errorf("%s: %s, not an SWF log: convert it first: %s", name, gpuTables[table], cmd)
}

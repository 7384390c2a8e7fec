package cli

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/batchq/batchq/internal/textcheck"
	"github.com/batchq/batchq/swf"
	"github.com/batchq/batchq/swf/convert"
)

// ReadNodes reads the machine of a -nodes FILE (convert.Nodes): the
// Alibaba trace's node list or a batchq nodes file, strictly unless
// lenient (a malformed line is then skipped and counted in the Report).
// Its errors name the flag and the file, and say what was wanted: a trace
// given as the nodes is named as such.
func ReadNodes(path string, lenient bool) ([]swf.Node, convert.Report, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, convert.Report{}, fmt.Errorf("-nodes: %w", err) // (err names the file)
	}
	defer f.Close()
	kinds, rep, err := convert.Nodes(f, convert.Options{Strict: !lenient})
	var fe *convert.FormatError
	switch {
	case errors.As(err, &fe) && fe.Line == 0:
		return nil, rep, fmt.Errorf("-nodes %s: empty: no header line, no node", path)
	case errors.As(err, &fe) && fe.Saw == "utf-16":
		// convert's explanation (the iconv to run), which "not a node
		// list" below hid behind a sample of NULs.
		return nil, rep, fmt.Errorf("-nodes %s: %s", path, strings.TrimPrefix(err.Error(), "convert: nodes: "))
	case errors.As(err, &fe) && (fe.Saw == "alibaba" || fe.Saw == "swf"):
		return nil, rep, fmt.Errorf("-nodes %s: a trace, not a node list (line %d: %q); give it as TRACE, and as -nodes an Alibaba node list or a batchq nodes file (kind,count,cores,memory,gpus,gpu_model)",
			path, fe.Line, fe.Sample)
	case errors.As(err, &fe) && (fe.Saw == "binary" || textcheck.Binary(fe.Sample)):
		// (a little-endian one, a NUL beside every other byte, drew
		// the iconv advice of UTF-16 text)
		return nil, rep, fmt.Errorf("-nodes %s: binary data, not a text node list (line %d: %q); want an Alibaba node list (sn,cpu_milli,memory_mib,gpu,model) or a batchq nodes file (kind,count,cores,memory,gpus,gpu_model)",
			path, fe.Line, fe.Sample)
	case errors.As(err, &fe):
		return nil, rep, fmt.Errorf("-nodes %s: not a node list (line %d: %q); want an Alibaba node list (sn,cpu_milli,memory_mib,gpu,model) or a batchq nodes file (kind,count,cores,memory,gpus,gpu_model)",
			path, fe.Line, fe.Sample)
	case err != nil:
		if pe := (*convert.ParseError)(nil); errors.As(err, &pe) {
			// Strict (the commands reading -nodes have -lenient, which
			// skips such a line): say so, as of a trace's (LenientHint).
			err = fmt.Errorf("%w (-lenient skips malformed lines, counted and reported)", err)
		}
		if strings.Contains(err.Error(), path) {
			return nil, rep, err
		}
		return nil, rep, nodesError{path, err}
	}
	return kinds, rep, nil
}

// nodesError is a convert.Nodes error after the flag and the file,
// without the library's "convert: ", which read as another command's
// name ("simulate: -nodes F: convert: nodes line 2, ...").
type nodesError struct {
	path string
	err  error
}

func (e nodesError) Error() string {
	return "-nodes " + e.path + ": " + strings.TrimPrefix(e.err.Error(), "convert: ")
}

func (e nodesError) Unwrap() error { return e.err }

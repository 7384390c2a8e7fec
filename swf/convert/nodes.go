package convert

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/batchq/batchq/swf"
)

// maxNodes bounds the nodes of one machine (swf.Node's own bound on a
// kind), so that no sum over the machine overflows.
const maxNodes = 1 << 20

// Nodes reads a machine's nodes from a CSV file with a header line
// (plain or gzip), in either of two formats told apart by the header:
//
// The Alibaba GPU 2023 trace's node list (openb_node_list_*.csv), one
// line per node:
//
//	sn,cpu_milli,memory_mib,gpu,model
//	openb-node-0000,64000,262144,2,P100
//
// Identical nodes (the same cores, memory, GPUs and model) become one
// kind, with their Count, in order of first appearance, named after what
// they hold ("P100x2-64c-256Gi", "cpu-32c-256Gi"). Amounts stay in the
// trace's units: Cores in thousandths of a core (cpu_milli), Memory in
// MiB, as its pods (Alibaba) ask for them. A node named (sn) twice is
// skipped the second time.
//
// A batchq nodes file, one line per kind, so that a user can describe a
// machine of their own:
//
//	kind,count,cores,memory,gpus,gpu_model,named:licence
//	cpu,400,128,257024,0,,0
//	gpu,40,64,515072,4,A100,2
//
// kind, count and cores are required; memory, gpus and gpu_model default
// to 0, 0 and none; each column named:NAME gives each node that many NAME
// resources (licences, local disk; NAME as written, case kept). The units are the machine's, as its jobs' demands
// use them: cores and MiB to go with the Slurm and PBS converters,
// thousandths of a core to go with Alibaba's pods. A kind named twice is
// skipped the second time.
//
// In both, lines starting with # are comments, and columns are found by
// name, in any order and letter case; unknown ones are noted and not read. The Report accounts for every line after the header:
// Records = Jobs + Σ Skipped, where Jobs counts the lines kept (nodes of an
// Alibaba list, kinds of a batchq file). A line with an unreadable value
// (a negative or non-numeric amount, more than 1024 GPUs on a node) is
// skipped as a "malformed record", or with Options.Strict returned as a
// *ParseError naming its line and column. A line that names a GPU model
// on a node without GPUs is kept without the model ("GPU model without
// GPUs"); GPUs without a model are kept unnamed ("GPUs without a
// model"). Other reasons: skipped "node named twice", "kind named twice",
// "count 0", "machine over 2^20 nodes", "repeated header line"; kept
// "fewer fields than the header" (the missing values absent), "more
// fields than the header". An input that is neither format is a
// *FormatError; one without a node is an error.
func Nodes(r io.Reader, opt Options) (_ []swf.Node, _ Report, err error) {
	in, done, b, err := begin(r, &opt, "nodes", "alibaba-nodes")
	if err != nil {
		return nil, Report{}, err
	}
	defer done()
	defer b.damaged(&err) // (before done: it reads on in the input)
	var nr *nodeReader
	var buf []string
	err = readTable(newLineReader(in), b, "nodes", true,
		func(s string, line int) (err error) { nr, err = newNodeReader(b, s, line); return err },
		func(s string, line int) (err error) { buf, err = nr.row(s, line, buf); return err })
	if err != nil {
		return nil, b.rep, err
	}
	return nr.finish()
}

// nodeReader turns the lines of a nodes table into kinds.
type nodeReader struct {
	b      *builder
	t      *table
	format string // "alibaba-nodes" or "nodes"
	kinds  []swf.Node
	index  map[string]int // a kind's identity (Alibaba) or name (batchq) → index in kinds
	seen   map[string]bool
	total  int64
}

func newNodeReader(b *builder, header string, num int) (*nodeReader, error) {
	format := csvKind(header)
	if format != "alibaba-nodes" && format != "nodes" {
		return nil, &FormatError{Want: "nodes", Saw: format, Line: num, Sample: clip(strings.ToValidUTF8(header, "?"))}
	}
	known := []string{"sn", "cpu_milli", "memory_mib", "gpu", "model"}
	if format == "nodes" {
		known = []string{"kind", "count", "cores", "memory", "gpus", "gpu_model", "named:"}
	}
	t, notes, err := newTable(header, known)
	if err != nil {
		return nil, &ParseError{Format: format, Line: num, Err: err}
	}
	b.format, b.rep.Format = format, format
	b.rep.Notes = append(b.rep.Notes, notes...)
	// The optional columns: what their absence means.
	for _, c := range known[1:] {
		switch {
		case t.has(c) || strings.HasSuffix(c, ":") || c == "count" || c == "cores" || c == "cpu_milli":
		case c == "memory" || c == "memory_mib":
			b.rep.Notes = append(b.rep.Notes, "no column "+c+": memory 0")
		case c == "gpus" || c == "gpu":
			b.rep.Notes = append(b.rep.Notes, "no column "+c+": no GPUs")
		default:
			b.rep.Notes = append(b.rep.Notes, "no column "+c+": no GPU model")
		}
	}
	return &nodeReader{b: b, t: t, format: format, index: map[string]int{}, seen: map[string]bool{}}, nil
}

// row reads one line into its kind.
func (nr *nodeReader) row(line string, num int, buf []string) ([]string, error) {
	b, t := nr.b, nr.t
	row, width, ok, err := b.csvRow(t, line, num, buf)
	if !ok {
		return row, err
	}
	if width != "" {
		b.rep.Anomalies[width]++
	}
	type amount struct {
		col      string
		dst      *int64
		required bool
		limit    int64
	}
	var n swf.Node
	var name string
	amounts := []amount{{"cpu_milli", &n.Cores, true, maxSeconds}, {"memory_mib", &n.Memory, false, maxSeconds},
		{"gpu", &n.GPUs, false, 1 << 10}}
	if nr.format == "nodes" {
		name = t.get(row, "kind")
		if name == "" {
			return row, b.malformed(num, t.label("kind"), "", errors.New("no kind name"))
		}
		amounts = []amount{{"count", &n.Count, true, maxNodes}, {"cores", &n.Cores, true, maxSeconds},
			{"memory", &n.Memory, false, maxSeconds}, {"gpus", &n.GPUs, false, 1 << 10}}
	}
	for _, a := range amounts {
		v := t.get(row, a.col)
		if v == "" && !a.required {
			continue
		}
		x, rounded, err := parseAmount(v, a.limit)
		if err == nil && rounded {
			err = errors.New("not a whole number")
		}
		if err != nil {
			return row, b.malformed(num, t.label(a.col), v, err)
		}
		*a.dst = x
	}
	model := "model"
	if nr.format == "nodes" {
		model = "gpu_model"
	}
	n.GPUModel = t.get(row, model)
	switch {
	case n.GPUs == 0 && n.GPUModel != "":
		b.rep.Anomalies["GPU model without GPUs"]++
		n.GPUModel = ""
	case n.GPUs > 0 && n.GPUModel == "":
		b.rep.Anomalies["GPUs without a model"]++
	}
	if nr.format == "nodes" {
		return row, nr.kind(n, name, row, num)
	}
	n.Count = 1
	if sn := t.get(row, "sn"); sn != "" {
		if nr.seen[sn] {
			b.skip("node named twice")
			return row, nil
		}
		nr.seen[strings.Clone(sn)] = true
	}
	return row, nr.node(n)
}

// kind files a batchq line: a kind of its own.
func (nr *nodeReader) kind(n swf.Node, name string, row []string, num int) error {
	b, t := nr.b, nr.t
	for i, col := range t.names {
		if !strings.HasPrefix(col, "named:") || col == "named:" || t.col[col] != i || i >= len(row) || row[i] == "" {
			continue
		}
		v, rounded, err := parseAmount(row[i], maxSeconds)
		if err == nil && rounded {
			err = errors.New("not a whole number")
		}
		if err != nil {
			return b.malformed(num, t.label(col), row[i], err)
		}
		if v == 0 {
			continue
		}
		if n.Named == nil {
			n.Named = map[string]int64{}
		}
		n.Named[strings.TrimSpace(t.raw[i][len("named:"):])] = v
	}
	if _, dup := nr.index[name]; dup {
		b.skip("kind named twice")
		return nil
	}
	if n.Count == 0 {
		b.skip("count 0")
		return nil
	}
	if nr.total+n.Count > maxNodes {
		b.skip("machine over 2^20 nodes")
		return nil
	}
	n.Name = strings.Clone(name)
	n.GPUModel = strings.Clone(n.GPUModel)
	nr.index[n.Name] = len(nr.kinds)
	nr.kinds = append(nr.kinds, n)
	nr.total += n.Count
	b.rep.Jobs++
	return nil
}

// node files one Alibaba node with the kind of its identical nodes.
func (nr *nodeReader) node(n swf.Node) error {
	if nr.total >= maxNodes {
		nr.b.skip("machine over 2^20 nodes")
		return nil
	}
	key := fmt.Sprintf("%d,%d,%d,%s", n.Cores, n.Memory, n.GPUs, n.GPUModel)
	if i, ok := nr.index[key]; ok {
		nr.kinds[i].Count++
	} else {
		n.Name = kindName(n)
		n.GPUModel = nr.b.intern(n.GPUModel)
		nr.index[key] = len(nr.kinds)
		nr.kinds = append(nr.kinds, n)
	}
	nr.total++
	nr.b.rep.Jobs++
	return nil
}

// kindName names an Alibaba node kind after what each node holds: GPU
// model and count (or "cpu"), cores (thousandths shown as cores where
// whole) and memory (GiB where whole).
func kindName(n swf.Node) string {
	var sb strings.Builder
	switch {
	case n.GPUs == 0:
		sb.WriteString("cpu")
	case n.GPUModel == "":
		sb.WriteString("gpu")
	default:
		sb.WriteString(headerSafe(n.GPUModel))
	}
	if n.GPUs > 0 {
		sb.WriteString("x" + strconv.FormatInt(n.GPUs, 10))
	}
	if n.Cores%1000 == 0 {
		sb.WriteString("-" + strconv.FormatInt(n.Cores/1000, 10) + "c")
	} else {
		sb.WriteString("-" + strconv.FormatInt(n.Cores, 10) + "m")
	}
	if n.Memory%1024 == 0 {
		sb.WriteString("-" + strconv.FormatInt(n.Memory/1024, 10) + "Gi")
	} else {
		sb.WriteString("-" + strconv.FormatInt(n.Memory, 10) + "Mi")
	}
	return sb.String()
}

// finish checks the kinds and returns them.
func (nr *nodeReader) finish() ([]swf.Node, Report, error) {
	b := nr.b
	if len(nr.kinds) == 0 {
		if err := b.unreadable(); err != nil {
			return nil, b.rep, err
		}
		return nil, b.rep, fmt.Errorf("convert: %s: no node in the input (%d lines after the header)", nr.format, b.rep.Records)
	}
	for i := range nr.kinds {
		if err := nr.kinds[i].Validate(); err != nil {
			// The reader bounds every amount, so this is a bug, not input.
			return nil, b.rep, fmt.Errorf("convert: %s: %w", nr.format, err)
		}
	}
	return nr.kinds, b.rep, nil
}

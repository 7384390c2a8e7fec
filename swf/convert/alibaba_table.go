package convert

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// The CSV tables read by Alibaba and Nodes: a header line names the
// columns, and columns are found by name (trimmed, case-insensitive, in any
// order), never by position, because the trace's variants differ in which
// columns they carry (openb_pod_list_multigpu20.csv has five of the eleven)
// and other exports of it may reorder them or add an index column.

// csvKind tells a CSV table this package reads from its header line (the
// first non-blank line, trimmed): "alibaba" (a pod list of the Alibaba GPU
// 2023 trace), "alibaba-nodes" (its node list), "nodes" (a batchq nodes
// file), "helios" or "acme" (a job table GPUTrace reads: acme when it has
// type, gpu_time or mem_per_pod_GB), or "" for none. It is also the
// format sniff names.
func csvKind(first string) string {
	sep := sepOf(first)
	if strings.IndexByte(first, sep) < 0 {
		return ""
	}
	f, _, err := splitSep(strings.TrimPrefix(first, "\xef\xbb\xbf"), sep, nil)
	if err != nil {
		return ""
	}
	for i := range f {
		f[i] = normColumn(f[i])
	}
	has := func(names ...string) bool {
		for _, n := range names {
			if slices.Contains(f, n) {
				return true
			}
		}
		return false
	}
	switch {
	case has("cpu_milli") && !has("num_gpu", "gpu_milli", "gpu_spec", "pod_phase", "creation_time", "qos") &&
		has("sn", "gpu", "model"):
		return "alibaba-nodes"
	case has("cpu_milli"):
		return "alibaba"
	case has("kind") && has("count") && has("cores"):
		return "nodes"
	case has("id_job") && has("time_submit"): // GPUTrace's: Slurm's job table (MIT SuperCloud)
		return "supercloud"
	case has("queued_timestamp") && has("start_timestamp"): // GPUTrace's: ALCF's job log
		return "alcf"
	case has("job_id") && has("gpu_num") && has("submit_time") && has("start_time"): // GPUTrace's
		if has("type", "gpu_time", "mem_per_pod_gb") {
			return "acme"
		}
		return "helios"
	}
	return ""
}

// normColumn is a header field as columns are looked up: trimmed and in
// lower case.
func normColumn(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

var (
	errQuote      = errors.New("unterminated quoted field")
	errAfterQuote = errors.New("text after the closing quote of a field")
)

// splitCSV splits one line of CSV into dst: fields separated by commas; a
// field in double quotes may hold commas and doubled quotes (a quoted
// field spanning lines is not read: no table here has one). On an error it
// returns the 1-based column of the bad field.
func splitCSV(line string, dst []string) ([]string, int, error) { return splitSep(line, ',', dst) }

// sepOf tells a header line's separator: a tab when it has more tabs
// than commas outside double quotes (a table exported as TSV), else a
// comma. A quoted column name's tabs do not count: a comma file whose
// header had one with many was split at its tabs, unreadable.
func sepOf(header string) byte {
	tabs, commas, quoted := 0, 0, false
	for i := 0; i < len(header); i++ {
		switch header[i] {
		case '"':
			quoted = !quoted // ("" inside a quoted field toggles twice)
		case '\t':
			if !quoted {
				tabs++
			}
		case ',':
			if !quoted {
				commas++
			}
		}
	}
	if tabs > commas {
		return '\t'
	}
	return ','
}

// splitSep is splitCSV with sep (',' or '\t') between the fields.
func splitSep(line string, sep byte, dst []string) ([]string, int, error) {
	dst = dst[:0]
	for i, col := 0, 1; ; col++ {
		if i < len(line) && line[i] == '"' {
			var sb strings.Builder
			j := i + 1
			for {
				k := strings.IndexByte(line[j:], '"')
				if k < 0 {
					return dst, col, errQuote
				}
				sb.WriteString(line[j : j+k])
				j += k + 1
				if j < len(line) && line[j] == '"' {
					sb.WriteByte('"')
					j++
					continue
				}
				break
			}
			if j < len(line) && line[j] != sep {
				return dst, col, errAfterQuote
			}
			dst = append(dst, sb.String())
			if j >= len(line) {
				return dst, 0, nil
			}
			i = j + 1
			continue
		}
		k := strings.IndexByte(line[i:], sep)
		if k < 0 {
			return append(dst, strings.TrimSpace(line[i:])), 0, nil
		}
		dst = append(dst, strings.TrimSpace(line[i:i+k]))
		i += k + 1
	}
}

// table is a CSV header: where each named column is.
type table struct {
	sep   byte           // ',' or '\t' (sepOf)
	names []string       // the header's fields, normalized
	raw   []string       // the header's fields as written (trimmed)
	col   map[string]int // column name → index of its first occurrence
}

// newTable reads a header line; notes says what of it is ignored
// (unnamed, repeated or unknown columns; known lists the names the reader
// uses, and a name with a prefix in it ending in ':' stands for all names
// with that prefix).
func newTable(line string, known []string) (t *table, notes []string, err error) {
	sep := sepOf(line)
	f, col, err := splitSep(strings.TrimPrefix(line, "\xef\xbb\xbf"), sep, nil)
	if err != nil {
		return nil, nil, fmt.Errorf("header line, column %d: %w", col, err)
	}
	t = &table{sep: sep, col: map[string]int{}}
	for i, name := range f {
		t.raw = append(t.raw, strings.TrimSpace(name))
		name = normColumn(name)
		t.names = append(t.names, name)
		switch _, dup := t.col[name]; {
		case name == "":
			notes = append(notes, fmt.Sprintf("column %d has no name: ignored", i+1))
			continue
		case dup:
			notes = append(notes, fmt.Sprintf("column %d repeats %q: ignored, the first is read", i+1, clip(name)))
			continue
		}
		t.col[name] = i
		if !slices.ContainsFunc(known, func(k string) bool {
			return k == name || strings.HasSuffix(k, ":") && strings.HasPrefix(name, k) && len(name) > len(k)
		}) {
			notes = append(notes, fmt.Sprintf("column %q is not read", clip(name)))
		}
	}
	return t, notes, nil
}

// has reports whether the header has the column.
func (t *table) has(name string) bool { _, ok := t.col[name]; return ok }

// get returns a row's value of the column, "" when the header lacks it or
// the row is short of it.
func (t *table) get(row []string, name string) string {
	if i, ok := t.col[name]; ok && i < len(row) {
		return row[i]
	}
	return ""
}

// label names a column in an error: its name and 1-based position.
func (t *table) label(name string) string {
	if i, ok := t.col[name]; ok {
		return fmt.Sprintf("%s (column %d)", name, i+1)
	}
	return name
}

// allNames reports whether every field of a line is a column's name (a
// letter or "_" first), as a header's are: a row's numbers (cpu_milli,
// gpu_num) are digits or empty. A row holding a column's name as a value
// (a pod named "cpu_milli") is no header to switch to: it stopped the
// conversion, or its values became the columns of the rows behind it.
func allNames(f []string) bool {
	for _, v := range f {
		v = normColumn(v)
		if v == "" || v[0] != '_' && (v[0] < 'a' || v[0] > 'z') {
			return false
		}
	}
	return true
}

// isHeader reports whether a row repeats the header line, as in files
// concatenated with their headers.
func (t *table) isHeader(row []string) bool {
	if len(row) != len(t.names) {
		return false
	}
	for i, v := range row {
		if normColumn(v) != t.names[i] {
			return false
		}
	}
	return true
}

// width says how a row's field count differs from the header's: "" when
// it is the same.
func (t *table) width(row []string) string {
	switch {
	case len(row) < len(t.names):
		return "fewer fields than the header"
	case len(row) > len(t.names):
		return "more fields than the header"
	}
	return ""
}

// parseAmount reads a non-negative amount of at most limit: an integer, or
// a decimal such as a data-frame export writes ("427061.0"). A decimal
// with a fraction is rounded and reported by rounded; NaN, infinities,
// exponents past the limit and negative numbers are errors.
func parseAmount(s string, limit int64) (n int64, rounded bool, err error) {
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		if n < 0 || n > limit {
			return 0, false, errRange
		}
		return n, false, nil
	}
	if s == "" || strings.Trim(s, "0123456789.eE+-") != "" {
		return 0, false, errNumber
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, false, errNumber
	}
	if f < 0 || math.IsNaN(f) || f > float64(limit) {
		return 0, false, errRange
	}
	r := math.Round(f)
	return int64(r), r != f, nil
}

// csvRow splits a data line of t for the CSV readers (Alibaba's pods and
// nodes, GPUTrace): a malformed line is skipped and counted (Strict: an
// error), a repeated header skipped; ok is false for both. width is
// t.width's reason for a row of another field count, which fail reports
// (Strict: refuses) as the row's one error.
func (b *builder) csvRow(t *table, line string, num int, buf []string) (row []string, width string, ok bool, err error) {
	row, col, err := splitSep(line, t.sep, buf)
	if err != nil {
		return row, "", false, b.malformed(num, fmt.Sprintf("column %d", col), line, err)
	}
	if t.isHeader(row) {
		b.skip("repeated header line")
		return row, "", false, nil
	}
	if width = t.width(row); width != "" {
		if err := b.fail(num, "", line, fmt.Errorf("%d fields, the header has %d", len(row), len(t.names))); err != nil {
			return row, width, false, err
		}
		b.widthLine = num
	}
	return row, width, true, nil
}

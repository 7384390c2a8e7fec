package cli

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
)

// WriteJSON writes v as indented JSON and a newline.
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// Output returns where a command writes its text report: stdout itself,
// or, with asJSON, a buffer whose markdown flush turns into one JSON
// object on stdout (see Report). Call flush once the report is complete.
// The reproductions print markdown tables meant for their READMEs; this
// gives every one of them the same -json without a second printer per
// table.
func Output(stdout io.Writer, asJSON bool) (w io.Writer, flush func() error) {
	if !asJSON {
		return stdout, func() error { return nil }
	}
	var b bytes.Buffer
	return &b, func() error { return WriteJSON(stdout, Report(b.String())) }
}

// OutputSkipped is Output for a command that reads logs with -lenient
// (varq, coalloc): with lenient and asJSON, the sections are written
// with the lines skipped of all logs keyed beside them in the other
// commands' keys (malformed_lines_skipped, skipped), gathered in the
// returned *Skipped; otherwise it is Output, and the *Skipped is nil (not
// kept), so that the output without -lenient is as it was.
func OutputSkipped(stdout io.Writer, asJSON, lenient bool) (w io.Writer, flush func() error, skipped *Skipped) {
	if !lenient || !asJSON {
		w, flush = Output(stdout, asJSON)
		return w, flush, nil
	}
	var b bytes.Buffer
	skipped = &Skipped{}
	return &b, func() error {
		return WriteJSON(stdout, struct {
			ReportJSON
			*Skipped
		}{Report(b.String()), skipped})
	}, skipped
}

// A ReportJSON is a markdown report as data: its sections in order.
type ReportJSON struct {
	Sections []Section `json:"sections"`
}

// A Section is the text under one heading (the first may have none):
// its prose lines and its tables, cells as printed.
type Section struct {
	Title  string   `json:"title,omitempty"`
	Text   []string `json:"text,omitempty"`
	Tables []Table  `json:"tables,omitempty"`
}

// A Table is one markdown table: the header cells and the rows.
type Table struct {
	Columns []string   `json:"columns"`
	Rows    [][]string `json:"rows"`
}

// Report parses a markdown report: "#" lines start sections, runs of
// "|" lines are tables (the |---| rule skipped), other non-blank lines are
// text.
func Report(md string) ReportJSON {
	var r ReportJSON
	var sec *Section
	var tab *Table
	cur := func() *Section {
		if sec == nil {
			r.Sections = append(r.Sections, Section{})
			sec = &r.Sections[len(r.Sections)-1]
		}
		return sec
	}
	for _, line := range strings.Split(md, "\n") {
		t := strings.TrimSpace(line)
		if !strings.HasPrefix(t, "|") {
			tab = nil
		}
		switch {
		case t == "":
		case strings.HasPrefix(t, "#"):
			r.Sections = append(r.Sections, Section{Title: strings.TrimSpace(strings.TrimLeft(t, "#"))})
			sec = &r.Sections[len(r.Sections)-1]
		case strings.HasPrefix(t, "|"):
			cells := splitRow(t)
			s := cur()
			switch {
			case tab == nil:
				s.Tables = append(s.Tables, Table{Columns: cells, Rows: [][]string{}})
				tab = &s.Tables[len(s.Tables)-1]
			case isRule(cells):
			default:
				tab.Rows = append(tab.Rows, cells)
			}
		default:
			s := cur()
			s.Text = append(s.Text, t)
		}
	}
	if r.Sections == nil {
		r.Sections = []Section{}
	}
	return r
}

// splitRow splits "| a | b |" into its trimmed cells.
func splitRow(t string) []string {
	t = strings.TrimSuffix(strings.TrimPrefix(t, "|"), "|")
	cells := strings.Split(t, "|")
	for i, c := range cells {
		cells[i] = strings.TrimSpace(c)
	}
	return cells
}

// isRule reports whether cells are a table's |---|:--:| line.
func isRule(cells []string) bool {
	for _, c := range cells {
		if strings.Trim(c, "-: ") != "" || !strings.Contains(c, "-") {
			return false
		}
	}
	return true
}

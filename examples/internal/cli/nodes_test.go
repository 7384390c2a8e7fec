package cli

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/batchq/batchq/swf/convert"
)

// TestReadNodesUTF16: a nodes file in UTF-16 is named as such, with the
// iconv to run; it was "not a node list (line 1: \"?k\\x00i\\x00...\")",
// and without a byte-order mark it still was (little- or big-endian).
func TestReadNodesUTF16(t *testing.T) {
	for _, c := range []struct {
		name, bom string
		le        bool
	}{{"byte-order mark", "\xff\xfe", true}, {"little-endian", "", true}, {"big-endian", "", false}} {
		var b strings.Builder
		b.WriteString(c.bom)
		for _, ch := range []byte("kind,count,cores\ncpu,4,8\n") {
			if c.le {
				b.WriteByte(ch)
				b.WriteByte(0)
			} else {
				b.WriteByte(0)
				b.WriteByte(ch)
			}
		}
		path := filepath.Join(t.TempDir(), "nodes.csv")
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		_, _, err := ReadNodes(path, false)
		if err == nil || !strings.Contains(err.Error(), "-nodes "+path+": the input is UTF-16 text") ||
			!strings.Contains(err.Error(), "iconv -f UTF-16 -t UTF-8") {
			t.Errorf("%s: got %v, want the file named as UTF-16 text with the iconv to run", c.name, err)
		}
	}
}

// TestReadNodesMessage: a malformed line's error follows the flag and the
// file without swf/convert's "convert: " (simulate printed "simulate:
// -nodes F: convert: nodes line 2, ..."), and is still a
// *convert.ParseError to errors.As.
func TestReadNodesMessage(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ text, want string }{
		{"kind,count,cores\ncpu,4,-1\n", `: nodes line 2, field cores (column 3): "-1": value out of range (-lenient skips`},
		{"kind,count,cores\n", ": nodes: no node in the input"},
	} {
		path := filepath.Join(dir, "nodes.csv")
		if err := os.WriteFile(path, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		_, _, err := ReadNodes(path, false)
		if err == nil || !strings.HasPrefix(err.Error(), "-nodes "+path+c.want) || strings.Contains(err.Error(), "convert:") {
			t.Errorf("%q: got %v, want -nodes %s%s...", c.text, err, path, c.want)
		}
	}
	path := filepath.Join(dir, "bad.csv")
	if err := os.WriteFile(path, []byte("kind,count,cores\ncpu,4,-1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err := ReadNodes(path, false)
	if pe := (*convert.ParseError)(nil); !errors.As(err, &pe) || pe.Line != 2 {
		t.Errorf("%v: not a *convert.ParseError of line 2", err)
	}
}

package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadNodesUTF16: a nodes file in UTF-16 is named as such, with the
// iconv to run; it was "not a node list (line 1: \"?k\\x00i\\x00...\")".
func TestReadNodesUTF16(t *testing.T) {
	var b strings.Builder
	b.WriteString("\xff\xfe")
	for _, c := range []byte("kind,count,cores\ncpu,4,8\n") {
		b.WriteByte(c)
		b.WriteByte(0)
	}
	path := filepath.Join(t.TempDir(), "nodes.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err := ReadNodes(path, false)
	if err == nil || !strings.Contains(err.Error(), "-nodes "+path+": the input is UTF-16 text") ||
		!strings.Contains(err.Error(), "iconv -f UTF-16 -t UTF-8") {
		t.Errorf("got %v, want the file named as UTF-16 text with the iconv to run", err)
	}
}

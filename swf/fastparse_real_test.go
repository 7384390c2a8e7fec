package swf_test

import (
	"bufio"
	"bytes"
	"strings"
	"testing"

	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/swf"
)

// On the archive's logs, parseFast takes every job line (and gives
// parseJobScan's job): the fast path is the path a real log takes.
func TestParseFastTakesRealLogs(t *testing.T) {
	names := []string{tracetest.KTH, tracetest.SDSCBlue, tracetest.LANLCM5}
	if testing.Short() {
		names = names[:1]
	}
	for _, name := range names {
		sc := bufio.NewScanner(bytes.NewReader(gunzip(t, tracetest.Path(t, name))))
		lines, taken := 0, 0
		for sc.Scan() {
			line := strings.TrimLeft(sc.Text(), " \t")
			if line == "" || line[0] == ';' {
				continue
			}
			lines++
			if swf.SameParse(t, []byte(line)) {
				taken++
			}
		}
		if taken != lines {
			t.Errorf("%s: parseFast took %d of %d job lines", name, taken, lines)
		}
	}
}

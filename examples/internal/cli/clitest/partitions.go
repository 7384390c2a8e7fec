package clitest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/cli"
)

// DAS2Like is a log of five clusters of different sizes in one file, as
// a merged DAS2 would be (the archive publishes DAS2 as five logs, one a
// cluster; SHARCNET's ten clusters are one log): fs0, of 144 processors,
// runs three jobs of 48 at once; fs1 to fs4 (partitions 2 to 5) run one
// job of 8·p processors at a time, 7 jobs a round every 2000 s, the header naming the
// partitions and giving MaxProcs 400 for the whole. withWait false logs
// no waits (-1): no schedule of the log.
func DAS2Like(rounds int, withWait bool) string {
	var b strings.Builder
	b.WriteString("; Computer: five clusters in one log\n; MaxProcs: 400\n; MaxPartitions: 5\n")
	for i := 0; i < 5; i++ {
		fmt.Fprintf(&b, "; Partition: %d fs%d\n", i+1, i)
	}
	wait := 0
	if !withWait {
		wait = -1
	}
	id := 1
	for k := 0; k < rounds; k++ {
		for c := 0; c < 3; c++ {
			fmt.Fprintf(&b, "%d %d %d 1000 48 -1 -1 48 1200 -1 1 1 1 -1 1 1 -1 -1\n", id, 2000*k, wait)
			id++
		}
		for p := 2; p <= 5; p++ {
			fmt.Fprintf(&b, "%d %d %d 500 %d -1 -1 %d 600 -1 1 %d 1 -1 1 %d -1 -1\n", id, 2000*k+1, wait, 8*p, 8*p, id, p)
			id++
		}
	}
	return b.String()
}

// DAS2File writes DAS2Like(rounds, withWait) to a file in a new
// temporary directory and returns its path: the log the commands'
// partition tests read (forecast, replay, simulate, swfstat).
func DAS2File(t testing.TB, rounds int, withWait bool) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), fmt.Sprintf("das2-%d-%v.swf", rounds, withWait))
	if err := os.WriteFile(p, []byte(DAS2Like(rounds, withWait)), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// PartitionsOf is the "partitions" object of a command's -json output
// (cli.Partitions; its first JSON value, forecast printing one a line),
// nil when it has none.
func PartitionsOf(t testing.TB, out string) *cli.Partitions {
	t.Helper()
	var r struct {
		P *cli.Partitions `json:"partitions"`
	}
	if err := json.NewDecoder(strings.NewReader(out)).Decode(&r); err != nil {
		t.Fatalf("-json: %v\n%s", err, out)
	}
	return r.P
}

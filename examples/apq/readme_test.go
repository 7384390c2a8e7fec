package main

import (
	"path/filepath"
	"testing"

	"github.com/batchq/batchq/examples/internal/readme"
	"github.com/batchq/batchq/internal/tracetest"
)

// paperDir returns the traces' directory, skipping (or failing in CI)
// unless the paper's four logs are there.
func paperDir(t *testing.T) string {
	t.Helper()
	var dir string
	for _, pt := range paperTraces {
		dir = filepath.Dir(tracetest.Path(t, pt.File))
	}
	return dir
}

// TestReadmeKept checks the README's job counts (reads the four logs, a
// few seconds).
func TestReadmeKept(t *testing.T) {
	if testing.Short() {
		t.Skip("reads four whole logs")
	}
	text, err := keptText(paperDir(t))
	if err != nil {
		t.Fatal(err)
	}
	readme.Check(t, "README.md", "kept", text)
}

// The README's tables of Tables V–IX, by the SHA-256 of their text (the
// command's -tables V, VI,VII and VIII,IX on the four logs, about 1
// CPU-hour). Regenerate them and print the new digests with
//
//	BATCHQ_LONG=1 BATCHQ_UPDATE_README=1 go test ./examples/apq -run TestReadmeTables -timeout 3h
var tablesDigests = map[string]string{
	"v-1": "", "v-2": "", "v-3": "", "v-4": "",
	"vi-1": "", "vi-2": "", "vi-3": "", "vi-4": "",
	"viii-1": "", "viii-2": "", "viii-3": "", "viii-4": "",
	"viii-5": "", "viii-6": "", "viii-7": "", "viii-8": "",
}

func TestReadmeTables(t *testing.T) {
	readme.CheckLong(t, "README.md", tablesDigests, func() map[string][]byte {
		out, err := readmeRegions(paperDir(t))
		if err != nil {
			t.Fatal(err)
		}
		return out
	})
}

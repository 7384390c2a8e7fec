package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/batchq/batchq/examples/internal/readme"
	"github.com/batchq/batchq/internal/tracetest"
)

// The README's regions, by the SHA-256 of their text: every cell of the
// tables, about 110 simulations, 36 of them with 50 % or 95 % VARQ jobs
// (2–3 CPU-hours). Regenerate them and print the new digests with
//
//	BATCHQ_LONG=1 BATCHQ_UPDATE_README=1 go test ./examples/varq -run TestReadmeStudy -timeout 6h
var studyDigests = map[string]string{
	"status":           "",
	"crowd-blue":       "",
	"crowd-ctc":        "",
	"status-reading":   "",
	"seeds":            "",
	"crowd-contention": "",
	"crowd-reading":    "",
	"measured":         "",
	"coverage":         "",
	"silence":          "",
	"contention":       "",
	"variants":         "",
	"figure":           "",
}

func TestReadmeStudy(t *testing.T) {
	readme.CheckLong(t, "README.md", studyDigests, func() map[string][]byte {
		var dir string
		for _, name := range []string{tracetest.SDSCBlue, tracetest.CTC, tracetest.SDSCSP2, tracetest.KTH} {
			dir = filepath.Dir(tracetest.Path(t, name))
		}
		out, err := newStudy(dir, os.Stderr).regions()
		if err != nil {
			t.Fatal(err)
		}
		return out
	})
}

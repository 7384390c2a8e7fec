package main

import (
	"os"
	"testing"

	"github.com/batchq/batchq/examples/internal/readme"
	"github.com/batchq/batchq/internal/tracetest"
)

// defaultMachinesOf loads the five default machines, skipping (or failing
// in CI) without their traces.
func defaultMachinesOf(t *testing.T) []machine {
	t.Helper()
	var paths []string
	for _, name := range defaultMachines {
		paths = append(paths, tracetest.Path(t, name))
	}
	ms, err := loadMachines(paths)
	if err != nil {
		t.Fatal(err)
	}
	return ms
}

// The README's long regions, by the SHA-256 of their text: every method
// over five windows, COUNT = 3, -diag and -drop (27 runs, about 4
// CPU-minutes). Regenerate them and print the new digests with
//
//	BATCHQ_LONG=1 BATCHQ_UPDATE_README=1 go test ./examples/coalloc -run TestReadmeStudy
var studyDigests = map[string]string{
	"cells":        "",
	"windows":      "",
	"cost":         "",
	"executed":     "",
	"status":       "",
	"why":          "",
	"remedies":     "",
	"noise":        "",
	"count3":       "",
	"none":         "",
	"none-windows": "",
	"diag":         "",
}

func TestReadmeStudy(t *testing.T) {
	readme.CheckLong(t, "README.md", studyDigests, func() map[string][]byte {
		st, err := runStudy(defaultMachinesOf(t), os.Stderr)
		if err != nil {
			t.Fatal(err)
		}
		return st.regions()
	})
}

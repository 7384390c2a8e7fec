package main

import (
	"io"
	"path/filepath"
	"testing"

	"github.com/batchq/batchq/examples/internal/readme"
	"github.com/batchq/batchq/internal/tracetest"
)

// The README's IBL tables, by the SHA-256 of their text (15 replays of
// KTH, SDSC-SP2 and CTC, about 9 minutes). Regenerate them and print
// the new digests with
//
//	BATCHQ_LONG=1 BATCHQ_UPDATE_README=1 go test ./examples/qserve -run TestReadmeIBL
var iblDigests = map[string]string{
	"ibl":      "431100365bfabfe107e2b4412db7d8b84ace3e9f4ec631f4fba888decdab68a8",
	"ibl-long": "25201de520fd0ae81bf7fe797462bab015946fadec7ab588eb6ab0be3bb2193b",
	"ibl-n":    "3de124d2ce104ca628dd7b29bcf6ac1156b904ec14d06fbb2ac48291c4918e94",
}

func TestReadmeIBL(t *testing.T) {
	readme.CheckLong(t, "README.md", iblDigests, func() map[string][]byte {
		var dir string
		for _, name := range iblTraces {
			dir = filepath.Dir(tracetest.Path(t, name))
		}
		out, err := iblRegions(dir, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		return out
	})
}

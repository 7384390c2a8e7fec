package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/batchq/batchq/examples/internal/readme"
	"github.com/batchq/batchq/internal/tracetest"
)

// The README's regions, by the SHA-256 of their text: every cell of the
// tables, 111 simulations, 36 of them with 50 % or 95 % VARQ jobs (75
// minutes on the shared 2-core machine). Regenerate them and print the new digests with
//
//	BATCHQ_LONG=1 BATCHQ_UPDATE_README=1 go test ./examples/varq -run TestReadmeStudy -timeout 6h
var studyDigests = map[string]string{
	"status":           "614d8ca327a0daf49ef79bd52a895b7ba6a485330babf5aa646a9f71a935aaaf",
	"crowd-blue":       "1a5dc95cbd59d4ecd35f218f79dd7b956706ff71c416d15908b4e2130e128aed",
	"crowd-ctc":        "130aef9d9ff567f490017249ccc8228eac947f51fa2316f09e9f9cafd587844d",
	"status-reading":   "e6756c5eaee2999177922f2ff1025bb6e1e56a1fe92e5e01e2e824db0c018dca",
	"seeds":            "42ee7ab1f40c5313613b129e743cfa861c4c2760f03142e37ee428931c73e6c8",
	"crowd-contention": "0d3af89ffdccb83abc1d000d6631b9cf5cc106bfe28b10b3bdd3b96a487c0e57",
	"crowd-reading":    "b686dd7bda88890af55166ca7bb2c1901c587a9d2489e6e02cd078f5b0906adf",
	"measured":         "9647ea7f604f9da36304b496ba724807af3decf9aaf15cca28a85d0c761b1c4b",
	"coverage":         "6d97666580e733fac7d6f72dad2bceb74db8daf20c449367919f37dff32b01d8",
	"silence":          "87ca6488b0bdfbfffe3a28ee0eb6d82ea7e0ec3ef3226a9011e00b2c8f23a930",
	"contention":       "d2c6895164dbe407765cb0a1b05376966835b963c2867832d815a37da33cc858",
	"variants":         "927ba46cbd83588927dd6b50dfee67635ba37fbcaa1301b83f1a535a863c24d2",
	"figure":           "9d95dec2c814c67b6f7491f9070c53ce44bc32508e1496ada3adeebc81476a1d",
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

// TestReadmeSliceKTH is the CI slice of TestReadmeStudy (BATCHQ_LONG=1;
// CI runs it with -run): six of its 111 simulations, KTH-SP2's 10 % cells
// at the three targets with the thesis's method and with crowd-aware
// planning, through the study's cells. KTH's row of the status table must
// be the README's as printed (the region itself is pinned by its digest).
func TestReadmeSliceKTH(t *testing.T) {
	if !readme.Long() {
		t.Skipf("six VARQ simulations of KTH-SP2: set %s=1", readme.LongEnv)
	}
	st := newStudy(filepath.Dir(tracetest.Path(t, kthAll.trace)), os.Stderr)
	var row bytes.Buffer
	st.statusRow(&row, kthAll)
	if st.err != nil {
		t.Fatal(st.err)
	}
	if text := readme.RegionOf(t, "README.md", "status"); !bytes.Contains([]byte(text), row.Bytes()) {
		t.Errorf("README.md region status lacks the recomputed row\n%s", row.Bytes())
	}
}

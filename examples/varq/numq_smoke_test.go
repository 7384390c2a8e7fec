package main

import (
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/batchq/batchq/internal/tracetest"
)

func TestNumqSmoke(t *testing.T) {
	blue50k = logSpec{tracetest.SDSCBlue, 1000}
	blueAll = logSpec{tracetest.SDSCBlue, 1200}
	ctcAll = logSpec{tracetest.CTC, 1000}
	sp2All = logSpec{tracetest.SDSCSP2, 1000}
	kthAll = logSpec{tracetest.KTH, 1000}
	out, err := newStudy(filepath.Dir(tracetest.Path(t, tracetest.KTH)), io.Discard).regions()
	if err != nil {
		t.Fatal(err)
	}
	f, _ := os.Create("/tmp/numq-varq-smoke.md")
	defer f.Close()
	for _, k := range slices.Sorted(maps.Keys(out)) {
		f.WriteString("== " + k + "\n")
		f.Write(out[k])
	}
}

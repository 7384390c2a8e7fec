package sched_test

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

func TestConsHashTmp(t *testing.T) {
	cons, _ := sched.LookupPreset("conservative")
	out := map[string]string{}
	for _, tc := range []struct {
		trace string
		P     int64
	}{{tracetest.SDSCBlue, 1152}, {tracetest.CTC, 338}, {tracetest.LANLCM5, 1024}, {tracetest.SDSCPar, 416}, {tracetest.OSC, 178}, {tracetest.NASA, 128}, {tracetest.KTH, 100}, {tracetest.SDSCSP2, 128}} {
		_, jobs, err := swf.ReadFile(tracetest.Path(t, tc.trace))
		if err != nil {
			t.Fatal(err)
		}
		for _, base := range []string{"", "EASY++", "X2+", "PERFECT++"} {
			for mode := range 4 {
				if base != "" && mode != 0 && tc.trace != tracetest.KTH && tc.trace != tracetest.SDSCSP2 {
					continue
				}
				cfg := cons.New(tc.P)
				if base != "" {
					p, _ := sched.LookupPreset(base)
					c := p.New(tc.P)
					c.Scheduler = cfg.Scheduler
					cfg = c
				}
				cfg.PerEventPass = mode%2 == 1
				cfg.KillAtEstimate = mode == 2
				cfg.ShadowTies = mode == 3
				res, err := sched.Run(context.Background(), cfg, jobs)
				if err != nil {
					t.Fatal(err)
				}
				out[fmt.Sprintf("%s/%d %s %d", tracetest.ShortName(tc.trace), tc.P, base, mode)] = runHash(res)
			}
		}
	}
	var lines []string
	for k, v := range out {
		lines = append(lines, k+" "+v)
	}
	sort.Strings(lines)
	os.WriteFile(os.Getenv("HASHOUT"), []byte(strings.Join(lines, "\n")+"\n"), 0o644)
}

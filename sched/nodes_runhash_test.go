package sched_test

import (
	"context"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"testing"

	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// nodeRunHashes pins conservative backfilling on machines of nodes, first
// and best fit, on cuts of real logs: runHash's digest of every record
// and the summary, and the nodes and holdings of every job (Shares); on
// one-core nodes best fit places as first fit (every node it can use has
// one core free), so their digests agree. The
// digests were taken at commit d3a5ac15, before the cuts of its constant
// costs (dropOn, heldMarks, windowOn's path for cores and memory, the
// early stop of reachesOn's scans): those must not change one schedule.
// A change of the simulation's semantics that is meant must update them,
// and say so in its commit.
var nodeRunHashes = map[string]string{
	"CTC-SP2 3000 338x1 best=false":   "01b9e63489671d8b",
	"CTC-SP2 3000 338x1 best=true":    "01b9e63489671d8b",
	"KTH-SP2 3000 100x1 best=false":   "d4158be25046a9a6",
	"KTH-SP2 3000 100x1 best=true":    "d4158be25046a9a6",
	"lublin_256 2000 64x4 best=false": "b6c180a074d20b3f",
	"lublin_256 2000 64x4 best=true":  "69c2ee01726b25d7",
}

func TestNodeRunHashes(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: six conservative runs on nodes (about 10 s)")
	}
	got := map[string]string{}
	for _, tc := range []struct {
		trace string
		n     int
		nodes []swf.Node
	}{
		{tracetest.CTC, 3000, []swf.Node{{Count: 338, Cores: 1}}},
		{tracetest.KTH, 3000, []swf.Node{{Count: 100, Cores: 1}}},
		{tracetest.Lublin, 2000, []swf.Node{{Count: 64, Cores: 4}}},
	} {
		_, jobs, err := swf.ReadFile(tracetest.Path(t, tc.trace))
		if err != nil {
			t.Fatal(err)
		}
		jobs = jobs[:min(len(jobs), tc.n)]
		for _, best := range []bool{false, true} {
			cfg := preset("Conservative")(0)
			cfg.MachineSize, cfg.Nodes, cfg.KeepShares = 0, tc.nodes, true
			if best {
				cfg.Placement = sched.BestFit
			}
			res, err := sched.Run(context.Background(), cfg, jobs)
			if err != nil {
				t.Fatal(err)
			}
			h := fnv.New64a()
			fmt.Fprint(h, runHash(res))
			var b [8]byte
			for k := range res.Records {
				for _, sh := range res.Shares(k) {
					for _, v := range []int64{int64(sh.Node), sh.Cores, sh.Memory, sh.GPUs} {
						binary.LittleEndian.PutUint64(b[:], uint64(v))
						h.Write(b[:])
					}
				}
				h.Write([]byte{'|'})
			}
			key := fmt.Sprintf("%s %d %dx%d best=%v", tracetest.ShortName(tc.trace), tc.n, tc.nodes[0].Count, tc.nodes[0].Cores, best)
			got[key] = fmt.Sprintf("%016x", h.Sum64())
			if want, ok := nodeRunHashes[key]; !ok || want != got[key] {
				t.Errorf("%s: digest %s, pinned %q", key, got[key], want)
			}
		}
	}
	if t.Failed() {
		for k, v := range got {
			t.Logf("%q: %q,", k, v)
		}
	}
}

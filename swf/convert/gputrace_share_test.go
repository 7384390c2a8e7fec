package convert_test

import (
	"context"
	"maps"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
	"github.com/batchq/batchq/swf/convert"
)

// GPUTrace's jobs asking the same share one *swf.Demand (GPUTrace's doc:
// copy it before changing one job's): a simulation that wrote a job's
// demand in place would change every job of its value. Each preset, on a
// machine of nodes, and the Writer leave every demand as converted.
func TestGPUTraceSharedDemandsUnchanged(t *testing.T) {
	for _, file := range []string{"gpu-helios.csv", "gpu-acme-kalos.csv", "gpu-acme-seren.csv", "gpu-philly.json"} {
		in, err := os.ReadFile("testdata/" + file)
		if err != nil {
			t.Fatal(err)
		}
		if head, body, ok := strings.Cut(string(in), "\n"); ok && !strings.HasSuffix(file, ".json") {
			in = []byte(head + "\n" + body + body) // (each request twice at least)
		}
		res, err := convert.GPUTrace(strings.NewReader(string(in)), convert.Options{Location: time.UTC})
		if err != nil {
			t.Fatal(err)
		}
		was := map[*swf.Demand]swf.Demand{}
		shared := 0
		for _, j := range res.Jobs {
			if d := j.Demand; d != nil {
				if _, ok := was[d]; ok {
					shared++
				}
				was[d] = swf.Demand{Nodes: d.Nodes, Cores: d.Cores, Memory: d.Memory, GPUs: d.GPUs, Exclusive: d.Exclusive,
					GPUModels: slices.Clone(d.GPUModels), Named: maps.Clone(d.Named)}
			}
		}
		if shared == 0 && !strings.HasSuffix(file, ".json") {
			t.Fatalf("%s: no two jobs share a demand", file)
		}
		nodes := []swf.Node{{Name: "g8", Count: 8, Cores: 128, Memory: 1 << 21, GPUs: 8}}
		for _, p := range sched.Presets() {
			cfg := p.New(0)
			cfg.MachineSize, cfg.Nodes = 0, nodes
			jobs := slices.Clone(res.Jobs)
			r, err := sched.Run(context.Background(), cfg, jobs)
			if err != nil {
				t.Fatalf("%s %s: %v", file, p.Name, err)
			}
			if len(r.Records) == 0 {
				t.Fatalf("%s %s: no job simulated", file, p.Name)
			}
		}
		if err := swf.WriteAll(&strings.Builder{}, res.Header, res.Jobs); err != nil {
			t.Fatal(err)
		}
		for k, j := range res.Jobs {
			if d := j.Demand; d != nil && !reflect.DeepEqual(*d, was[d]) {
				t.Errorf("%s: job %d's demand %+v, converted as %+v", file, k+1, *d, was[d])
			}
		}
	}
}

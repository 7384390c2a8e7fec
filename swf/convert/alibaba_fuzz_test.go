package convert

import (
	"bytes"
	"slices"
	"testing"

	"github.com/batchq/batchq/swf"
)

// FuzzAlibaba checks Alibaba on any input: no panic; when it succeeds,
// every row accounted for, jobs numbered in submit order with values in
// bounds, a valid demand matching the SWF fields, and an SWF form that
// reads back, demands too.
func FuzzAlibaba(f *testing.F) {
	f.Add([]byte(podHeader + "\na,6000,12288,1,460,,LS,Succeeded,100,400,150\nc,16000,1024,0,0,,Burstable,Pending,200,300,\n"))
	f.Add([]byte("\xef\xbb\xbfName,CPU_MILLI,num_gpu,gpu_milli,gpu_spec\r\n\"p,1\",5.5,2,300,\"A|B|A\"\r\nx,1e3,0,9\r\n"))
	f.Add([]byte(podHeader + "\np,-1,x,2000,1500,T4,,Evicted,-3,1e400,NaN\n" + podHeader + "\n,\"\n"))
	f.Add([]byte("name,cpu_milli,memory_mib,num_gpu,gpu_milli\nb,2,3,2,1000\na,1,1,1,300\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := Alibaba(bytes.NewReader(data), Options{})
		if err != nil {
			return
		}
		rep := res.Report
		skipped := 0
		for _, n := range rep.Skipped {
			skipped += n
		}
		if rep.Records != rep.Jobs+skipped || rep.Jobs != len(res.Jobs) || len(res.IDs) != len(res.Jobs) {
			t.Fatalf("report does not add up: %+v", rep)
		}
		for k, j := range res.Jobs {
			if j.ID != int64(k+1) || j.Submit < 0 || k > 0 && j.Submit < res.Jobs[k-1].Submit {
				t.Fatalf("job %d: %+v", k+1, j)
			}
			if j.AllocProcs > maxProcs || j.ReqProcs > maxProcs || j.Submit > maxTime || j.Wait > maxTime ||
				j.RunTime > maxTime || j.ReqMemory > maxMemKB {
				t.Fatalf("job %d out of bounds: %+v", k+1, j)
			}
			d := j.Demand
			if d == nil || d.Validate() != nil || d.Nodes != 1 || d.Cores != j.ReqProcs || d.GPUs > 1<<10*1000 {
				t.Fatalf("job %d: demand %+v", k+1, d)
			}
			if len(d.GPUModels) > 0 && d.GPUs == 0 {
				t.Fatalf("job %d: models without GPUs %+v", k+1, d)
			}
		}
		var buf bytes.Buffer
		if err := swf.WriteAll(&buf, res.Header, res.Jobs); err != nil {
			t.Fatal(err)
		}
		jobs, err := swf.NewReader(&buf).ReadAll()
		if err != nil || len(jobs) != len(res.Jobs) {
			t.Fatalf("SWF form does not read back: %v\n%s", err, buf.Bytes())
		}
		if !sameJobs(jobs, res.Jobs) {
			t.Fatalf("SWF form reads back differently")
		}
	})
}

// FuzzNodes checks Nodes on any input: no panic; when it succeeds, every
// line accounted for and every kind valid, within 2^20 nodes.
func FuzzNodes(f *testing.F) {
	f.Add([]byte("sn,cpu_milli,memory_mib,gpu,model\nn0,64000,262144,2,P100\nn1,32000,262144,0,\nn0,1,1,1,\n"))
	f.Add([]byte("# m\nkind,count,cores,memory,gpus,gpu_model,named:L,named:\ncpu,400,128,257024,0,,0,3\ngpu,40,64,1,4,A100,2\n"))
	f.Add([]byte("KIND,count,cores\r\nb,1048576,1\r\nc,1,1\r\n\"d,1,1\r\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		kinds, rep, err := Nodes(bytes.NewReader(data), Options{})
		if err != nil {
			return
		}
		skipped := 0
		for _, n := range rep.Skipped {
			skipped += n
		}
		if rep.Records != rep.Jobs+skipped || len(kinds) == 0 {
			t.Fatalf("report does not add up: %d kinds, %+v", len(kinds), rep)
		}
		var total int64
		var names []string
		for _, k := range kinds {
			if err := k.Validate(); err != nil {
				t.Fatal(err)
			}
			total += k.Count
			names = append(names, k.Name)
		}
		if total > maxNodes {
			t.Fatalf("%d nodes", total)
		}
		if rep.Format == "nodes" {
			slices.Sort(names)
			if len(slices.Compact(names)) != len(kinds) {
				t.Fatalf("kinds named twice: %+v", kinds)
			}
		}
	})
}

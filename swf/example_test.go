package swf_test

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/batchq/batchq/swf"
)

func Example() {
	trace := `; Version: 2.2
; MaxNodes: 338 (batch partition; 512 total)
    1        0 588530    937  306 142.00    -1   -1  35100    -1  1  97  -1 307  3 -1 -1 -1
    2   164472 356587     75   17   2.00    -1   -1    300    -1  1  81  -1 195  3 -1 -1 -1
`
	r := swf.NewReader(strings.NewReader(trace))
	h, _ := r.Header()
	size, _ := h.MachineSize()
	fmt.Println("machine:", size, "processors")
	for job, err := range r.All() {
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("job %d: %d procs, ran %d s of %d s requested, waited %d s\n",
			job.ID, job.Size(), job.RunTime, job.ReqTime, job.Wait)
	}
	// Output:
	// machine: 338 processors
	// job 1: 306 procs, ran 937 s of 35100 s requested, waited 588530 s
	// job 2: 17 procs, ran 75 s of 300 s requested, waited 356587 s
}

// A job's demand (nodes, memory, GPUs) travels on a demand line before
// its job line, which tools reading 18 fields skip as a comment.
func Example_demand() {
	j := swf.NewJob()
	j.ID, j.Submit, j.RunTime, j.ReqProcs, j.ReqTime = 1, 0, 3600, 16, 7200
	j.Demand = &swf.Demand{Nodes: 2, Cores: 8, Memory: 65536, GPUs: 4000, GPUModels: []string{"A100"}, Exclusive: true}
	var buf strings.Builder
	if err := swf.WriteAll(&buf, nil, []swf.Job{j}); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(buf.String())
	jobs, err := swf.NewReader(strings.NewReader(buf.String())).ReadAll()
	if err != nil {
		fmt.Println(err)
		return
	}
	d := jobs[0].Demand
	fmt.Printf("job %d: %d nodes × %d cores, %d MiB, %g GPUs each, models %v\n",
		jobs[0].ID, d.Nodes, d.Cores, d.Memory, float64(d.GPUs)/1000, d.GPUModels)
	// Output:
	// ;= nodes=2 cores=8 mem=65536 gpus=4000 models=A100 excl
	// 1 0 -1 3600 -1 -1 -1 16 7200 -1 -1 -1 -1 -1 -1 -1 -1 -1
	// job 1: 2 nodes × 8 cores, 65536 MiB, 4 GPUs each, models [A100]
}

// A log too large to keep is read one job at a time into a Job the
// caller holds (one here; a slice of its own in a streamed simulation):
// ReadInto writes every field of it, Demand included, so nothing is left
// from the line before.
func ExampleReader_ReadInto() {
	trace := `; Version: 2.2
;= nodes=2 gpus=4000
    1        0     10   3600   32     -1    -1   32   7200    -1  1  97  -1 307  3 -1 -1 -1
; a comment between jobs
    2      600     -1     75   17     -1    -1   -1    300    -1  1  81  -1 195  3 -1 -1 -1
`
	r := swf.NewReader(strings.NewReader(trace))
	var job swf.Job
	var procSeconds int64
	for {
		err := r.ReadInto(&job)
		if err == io.EOF {
			break
		} else if err != nil {
			fmt.Println(err)
			return
		}
		procSeconds += job.Size() * job.RunTime
		fmt.Printf("job %d: %d procs for %d s, demand %v\n", job.ID, job.Size(), job.RunTime, job.Demand != nil)
	}
	fmt.Println("processor-seconds:", procSeconds, "jobs:", r.Stats().Jobs)
	// Output:
	// job 1: 32 procs for 3600 s, demand true
	// job 2: 17 procs for 75 s, demand false
	// processor-seconds: 116475 jobs: 2
}

// A strict read of a gzip stream that stops at a malformed line reads on
// for the stream's own error (a damaged stream inflates to garbage lines
// long before its checksum fails). Drain bounds that read: here to a
// second without the rest of the stream, after which the line's error
// stands. The stream below reads on to its bad checksum at once.
func ExampleFile_Drain() {
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte("; MaxProcs: 8\n1 0 10 100 4 -1 -1 4 300 -1 1 7 -1 -1 1 -1 -1 -1\n1 2 3\n"))
	zw.Close()
	damaged := gz.Bytes()
	damaged[len(damaged)-8] ^= 0xff // the CRC-32

	f, err := swf.OpenReader(bytes.NewReader(damaged), "in.swf.gz")
	if err != nil {
		fmt.Println(err)
		return
	}
	stalled := false
	f.Drain = func(rest io.Reader) error {
		done := make(chan error, 1)
		go func() { _, err := io.Copy(io.Discard, rest); done <- err }()
		select {
		case err := <-done:
			return err
		case <-time.After(time.Second):
			stalled = true // the line's error stands
			return nil
		}
	}
	_, err = f.ReadAll()
	fmt.Println(errors.Is(err, gzip.ErrChecksum))
	if !stalled { // else Close would wait for the stalled input (see Drain)
		f.Close()
	}
	// Output: true
}

// A checkpointed job's runs are logged as lines of status 2, 3 or 4 under
// its number, before its summary line: Partial tells them from jobs.
func ExampleStatus_Partial() {
	log := "; MaxProcs: 8\n" +
		"7 0 5 100 4 -1 -1 4 200 -1 2 1 1 -1 1 -1 -1 -1\n" + // first run, checkpointed
		"7 0 5 120 4 -1 -1 4 200 -1 3 1 1 -1 1 -1 -1 -1\n" + // last run
		"7 0 5 220 4 -1 -1 4 200 -1 1 1 1 -1 1 -1 -1 -1\n" + // the job: both runs
		"8 10 0 50 2 -1 -1 2 60 -1 1 1 1 -1 1 -1 -1 -1\n"
	jobs, err := swf.NewReader(strings.NewReader(log)).ReadAll()
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, j := range jobs {
		if !j.Status.Partial() {
			fmt.Printf("job %d ran %d s\n", j.ID, j.RunTime)
		}
	}
	// Output:
	// job 7 ran 220 s
	// job 8 ran 50 s
}

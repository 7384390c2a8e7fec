package main

import (
	"compress/gzip"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"

	"github.com/batchq/batchq/examples/internal/cli"
	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// writeFile creates path and has write fill it, through gzip when the name
// ends in .gz. On failure the partial file is removed (a regular file
// only: cli.RemovePartial) and the error names the file.
func writeFile(path string, write func(io.Writer) error) (err error) {
	f, err := os.Create(path)
	if err != nil {
		return err // names the file
	}
	defer func() {
		if cerr := f.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("%s: %w", path, cerr)
		}
		if err != nil {
			cli.RemovePartial(path)
		}
	}()
	var w io.Writer = f
	var zw *gzip.Writer
	if strings.HasSuffix(path, ".gz") {
		zw = gzip.NewWriter(f)
		w = zw
	}
	if err := write(w); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if zw != nil {
		if err := zw.Close(); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	return nil
}

// moduleVersion is the batchq module's version from the build information,
// "(devel)" for a build inside the module's own tree.
func moduleVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "(devel)"
	}
	const mod = "github.com/batchq/batchq"
	if bi.Main.Path == mod && bi.Main.Version != "" {
		return bi.Main.Version
	}
	for _, d := range bi.Deps {
		if d.Path == mod {
			return d.Version
		}
	}
	return "(devel)"
}

// scheduleHeader is the header of the -out file: it says that the file is
// a simulation, of what, under which policy and options, and keeps the
// source's identification and time reference.
func scheduleHeader(info *runInfo) *swf.Header {
	src := info.trace.header
	n := int64(0)
	for i := range info.res.Records {
		if info.res.Records[i].Start >= 0 {
			n++
		}
	}
	return &swf.Header{
		Version:        "2.2",
		Computer:       src.Computer,
		Installation:   src.Installation,
		Conversion:     "batchq examples/simulate, module github.com/batchq/batchq " + moduleVersion(),
		MaxJobs:        n,
		MaxRecords:     n,
		UnixStartTime:  src.UnixStartTime,
		TimeZone:       src.TimeZone,
		TimeZoneString: src.TimeZoneString,
		StartTime:      src.StartTime,
		MaxProcs:       info.cfg.MachineSize,
		Note: []string{
			"SIMULATED SCHEDULE, not a log: field 3 (wait time) is the simulated wait",
			fmt.Sprintf("policy: %s: %s", info.policy.Name, info.policy.Doc),
			"machine: " + machineText(info),
			"options: " + optionsText(info),
			fmt.Sprintf("source trace: %s (%d job lines, %d simulated, %d rejected as not sane)",
				filepath.Base(info.trace.name), info.trace.read, len(info.res.Records), len(info.res.Rejected.Excluded)),
			"fields 4 and 9 are the run time and estimate as simulated; a job killed at its estimate has status 0",
		},
	}
}

// writeSchedule writes the simulated schedule as SWF: every simulated job,
// in input order, with its job number and its simulated wait.
func writeSchedule(w io.Writer, info *runInfo) error {
	for i := range info.res.Records {
		if info.res.Records[i].Start < 0 {
			// Result.WriteSWF writes only started jobs; without
			// cancellations every simulated job starts.
			return errors.New("internal error: a simulated job never started")
		}
	}
	return info.res.WriteSWF(w, scheduleHeader(info))
}

var csvHeader = []string{"id", "submit", "wait", "start", "end", "run", "procs", "estimate", "prediction",
	"final_prediction", "backfilled", "included", "killed", "cancelled", "estimate_filled",
	"bsld", "slowdown", "accuracy", "corrections", "first_reservation", "user",
	// The job's swf.Demand (empty without one) and, on a machine of
	// nodes, the nodes it got and what it held on each.
	"demand_nodes", "demand_cores", "demand_memory", "demand_gpus", "gpu_models", "exclusive", "named",
	"nodes", "held"}

// writeJobsCSV writes one row per simulated job (csvHeader), in input order.
// Times are seconds; start, end and first_reservation are -1 when absent.
//
// The demand columns are the job's swf.Demand as read (demand_gpus in
// thousandths of a GPU, gpu_models joined by '|', named as name=amount
// joined by '|'), empty for a job without one. nodes lists the indices of
// the nodes the job ran on (Config.Nodes kinds in order, each kind's
// nodes in a row: sched.Result.Shares), space-separated, and held what it
// held on each, in the same order, as cores/memory/thousandths of GPUs;
// both are empty on one pool (no -nodes).
func writeJobsCSV(w io.Writer, res *sched.Result) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(csvHeader); err != nil {
		return err
	}
	row := make([]string, len(csvHeader))
	i64 := strconv.FormatInt
	f64 := func(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }
	for i := range res.Records {
		r := &res.Records[i]
		j := r.Job
		// The submit time as simulated: a peer mode moves a line
		// submitted at or before 0 to 1 (sched.Peer), and the wait
		// counts from there, as Record.SWF's does.
		submit := j.Submit
		if r.Start >= 0 {
			submit = r.Start - r.Wait
		}
		row = append(row[:0],
			i64(j.ID, 10), i64(submit, 10), i64(r.Wait, 10), i64(r.Start, 10), i64(r.End, 10),
			i64(r.RunTime, 10), i64(r.Size, 10), i64(r.Estimate, 10), i64(r.Prediction, 10),
			i64(r.Final, 10), strconv.FormatBool(r.Backfilled), strconv.FormatBool(r.Included),
			strconv.FormatBool(r.Killed), strconv.FormatBool(r.Cancelled), strconv.FormatBool(r.EstimateFilled),
			f64(r.BSLD), f64(r.Slowdown), f64(r.Accuracy), strconv.Itoa(r.Corrections),
			i64(r.FirstReservation, 10), i64(j.User, 10))
		row = appendDemandCells(row, j.Demand)
		row = appendShareCells(row, res.Shares(i))
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// appendDemandCells appends the demand columns of writeJobsCSV.
func appendDemandCells(row []string, d *swf.Demand) []string {
	if d == nil {
		return append(row, "", "", "", "", "", "", "")
	}
	i64 := strconv.FormatInt
	var named []string
	for _, k := range slices.Sorted(maps.Keys(d.Named)) {
		named = append(named, k+"="+i64(d.Named[k], 10))
	}
	return append(row, i64(d.Nodes, 10), i64(d.Cores, 10), i64(d.Memory, 10), i64(d.GPUs, 10),
		strings.Join(d.GPUModels, "|"), strconv.FormatBool(d.Exclusive), strings.Join(named, "|"))
}

// appendShareCells appends the nodes and held columns of writeJobsCSV.
func appendShareCells(row []string, shs []sched.NodeFree) []string {
	var nodes, held strings.Builder
	for k, sh := range shs {
		if k > 0 {
			nodes.WriteByte(' ')
			held.WriteByte(' ')
		}
		nodes.WriteString(strconv.Itoa(sh.Node))
		fmt.Fprintf(&held, "%d/%d/%d", sh.Cores, sh.Memory, sh.GPUs)
	}
	return append(row, nodes.String(), held.String())
}

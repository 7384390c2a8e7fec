package convert

import (
	"bytes"
	"compress/gzip"
	"errors"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/batchq/batchq/swf"
)

const podHeader = "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time"

func alibaba(t *testing.T, text string, opt Options) *Result {
	t.Helper()
	res, err := Alibaba(strings.NewReader(text), opt)
	if err != nil {
		t.Fatal(err)
	}
	checkAccounted(t, res.Report)
	return res
}

// checkAccounted checks Records = Jobs + Σ Skipped.
func checkAccounted(t *testing.T, rep Report) {
	t.Helper()
	skipped := 0
	for _, n := range rep.Skipped {
		skipped += n
	}
	if rep.Records != rep.Jobs+skipped {
		t.Errorf("records %d != jobs %d + skipped %d: %+v", rep.Records, rep.Jobs, skipped, rep)
	}
}

// TestAlibabaGPURule pins the GPU demand of each num_gpu × gpu_milli
// shape.
func TestAlibabaGPURule(t *testing.T) {
	for _, c := range []struct {
		numGPU, milli string
		want          int64
		note          string
	}{
		{"0", "0", 0, ""},
		{"0", "500", 0, "gpu_milli without num_gpu"},
		{"1", "460", 460, ""},
		{"1", "1000", 1000, ""},
		{"8", "1000", 8000, ""},
		{"2", "0", 2000, "num_gpu without gpu_milli"},
		{"2", "", 2000, "num_gpu without gpu_milli"},
		{"4", "300", 4000, "GPU share over several GPUs"},
		{"", "300", 0, "gpu_milli without num_gpu"},
	} {
		res := alibaba(t, podHeader+"\np,1000,10,"+c.numGPU+","+c.milli+",,LS,Succeeded,0,10,5\n", Options{})
		d := res.Jobs[0].Demand
		if d.GPUs != c.want || d.Nodes != 1 {
			t.Errorf("num_gpu %q gpu_milli %q: demand %+v, want GPUs %d", c.numGPU, c.milli, d, c.want)
		}
		want := map[string]int{}
		if c.note != "" {
			want[c.note] = 1
		}
		if !maps.Equal(res.Report.Anomalies, want) {
			t.Errorf("num_gpu %q gpu_milli %q: anomalies %v, want %v", c.numGPU, c.milli, res.Report.Anomalies, want)
		}
		if err := d.Validate(); err != nil {
			t.Error(err)
		}
	}
}

// TestAlibabaFields pins every field of pods of each phase.
func TestAlibabaFields(t *testing.T) {
	res := alibaba(t, podHeader+`
a,6000,12288,1,460,,LS,Succeeded,100,400,150
b,8000,0,2,1000,V100M16|V100M32|V100M32,BE,Failed,50,90,60
c,16000,1024,0,0,,Burstable,Pending,200,300,
d,2000,2048,0,0,,Guaranteed,Running,300,1000,310
e,1000,1000,0,0,,XQ,Running,10,500,20
`, Options{})
	want := parseJobs(t, []string{
		// ID Submit Wait Run Alloc CPU Mem ReqP ReqT ReqMem Status U G E Q P Prec Think
		"1 10 10 480 1000 -1 -1 1000 -1 1024 -1 -1 -1 -1 5 -1 -1 -1",
		"2 50 10 30 8000 -1 -1 8000 -1 0 0 -1 -1 -1 2 -1 -1 -1",
		"3 100 50 250 6000 -1 -1 6000 -1 2097 1 -1 -1 -1 1 -1 -1 -1",
		"4 200 -1 -1 -1 -1 -1 16000 -1 66 5 -1 -1 -1 3 -1 -1 -1",
		"5 300 10 690 2000 -1 -1 2000 -1 1049 -1 -1 -1 -1 4 -1 -1 -1",
	})
	checkJobs(t, res, []string{"e", "b", "a", "c", "d"}, want)
	demands := []swf.Demand{
		{Nodes: 1, Cores: 1000, Memory: 1000},
		{Nodes: 1, Cores: 8000, GPUs: 2000, GPUModels: []string{"V100M16", "V100M32"}},
		{Nodes: 1, Cores: 6000, Memory: 12288, GPUs: 460},
		{Nodes: 1, Cores: 16000, Memory: 1024},
		{Nodes: 1, Cores: 2000, Memory: 2048},
	}
	for k, d := range demands {
		g := res.Jobs[k].Demand
		if g == nil || g.Nodes != d.Nodes || g.Cores != d.Cores || g.Memory != d.Memory || g.GPUs != d.GPUs ||
			!slices.Equal(g.GPUModels, d.GPUModels) {
			t.Errorf("job %d: demand %+v, want %+v", k+1, g, d)
		}
	}
	checkCounts(t, "states", res.Report.States, map[string]int{"Succeeded": 1, "Failed": 1, "Pending": 1, "Running": 2})
	// d's deletion_time is the latest time of the list: still running.
	checkCounts(t, "anomalies", res.Report.Anomalies, map[string]int{"repeated model in gpu_spec": 1, noteCensored: 1})
	h := res.Header
	if !slices.Equal(h.Queue, []string{"1 LS", "2 BE", "3 Burstable", "4 Guaranteed", "5 XQ"}) || h.MaxJobs != 5 {
		t.Errorf("header %+v", h)
	}
}

// TestAlibabaOddRows counts every odd row with its reason, and stops at
// the first in strict mode with the line and the column.
func TestAlibabaOddRows(t *testing.T) {
	// The second note a case's first one entails.
	also := map[string]string{"negative scheduled": noteNoSched, "deletion not a number": noteNoEnd, "fewer fields": noteNoSched}
	for _, c := range []struct {
		name, row   string
		skip, note  string
		strictField string // "" when strict mode accepts the row
	}{
		{"negative cpu", "p,-5,10,0,0,,LS,Succeeded,0,10,5", skipMalformed, "", "cpu_milli (column 2)"},
		{"cpu not a number", "p,lots,10,0,0,,LS,Succeeded,0,10,5", skipMalformed, "", "cpu_milli (column 2)"},
		{"no cpu", "p,,10,0,0,,LS,Succeeded,0,10,5", skipMalformed, "", "cpu_milli (column 2)"},
		{"negative memory", "p,5,-10,0,0,,LS,Succeeded,0,10,5", skipMalformed, "", "memory_mib (column 3)"},
		{"num_gpu over 1024", "p,5,10,2000,1000,,LS,Succeeded,0,10,5", skipMalformed, "", "num_gpu (column 4)"},
		{"gpu_milli over 1000", "p,5,10,1,1500,,LS,Succeeded,0,10,5", skipMalformed, "", "gpu_milli (column 5)"},
		{"negative creation", "p,5,10,0,0,,LS,Succeeded,-3,10,5", skipMalformed, "", "creation_time (column 9)"},
		{"creation after 2200", "p,5,10,0,0,,LS,Succeeded,99999999999,10,5", skipMalformed, "", "creation_time (column 9)"},
		{"no creation", "p,5,10,0,0,,LS,Succeeded,,10,5", skipNoSubmit, "", ""},
		{"unterminated quote", `p,5,10,0,0,"T4|G2,LS,Succeeded,0,10,5`, skipMalformed, "", "column 6"},
		{"repeated header", strings.ToUpper(podHeader), "repeated header line", "", ""},
		{"negative scheduled", "p,5,10,0,0,,LS,Succeeded,0,10,-5", "", "unreadable scheduled_time", "scheduled_time (column 11)"},
		{"deletion not a number", "p,5,10,0,0,,LS,Succeeded,0,x,5", "", "unreadable deletion_time", "deletion_time (column 10)"},
		{"scheduled before creation", "p,5,10,0,0,,LS,Succeeded,8,10,5", "", noteStartBefore, ""},
		{"deletion before scheduling", "p,5,10,0,0,,LS,Failed,0,4,5", "", noteEndBefore, ""},
		{"deletion before creation", "p,5,10,0,0,,LS,Pending,6,4,", "", noteDelBefore, ""},
		{"ran without scheduling", "p,5,10,0,0,,LS,Succeeded,0,10,", "", noteNoSched, ""},
		{"pending but scheduled", "p,5,10,0,0,,LS,Pending,0,10,5", "", notePendingSched, ""},
		{"pending at the end", "p,5,10,0,0,,LS,Pending,0,,", "", notePendingEnd, ""},
		{"no deletion", "p,5,10,0,0,,LS,Succeeded,0,,5", "", noteNoEnd, ""},
		{"unknown phase", "p,5,10,0,0,,LS,Evicted,0,10,5", "", "unknown pod_phase", "pod_phase (column 8)"},
		{"no phase", "p,5,10,0,0,,LS,,0,10,5", "", "no pod_phase", ""},
		{"fewer fields", "p,5,10,0,0,,LS,Succeeded,0,10", "", "fewer fields than the header", "<row>"},
		{"more fields", "p,5,10,0,0,,LS,Succeeded,0,10,5,7", "", "more fields than the header", "<row>"},
		{"fraction", "p,5.5,10,0,0,,LS,Succeeded,0.0,10,5", "", noteRounded, ""},
		{"no name", ",5,10,0,0,,LS,Succeeded,0,10,5", "", "no name", ""},
		{"name repeated", "ok,5,10,0,0,,LS,Succeeded,0,10,5", "", "pod name repeated", ""},
		{"no cpu request", "p,0,10,0,0,,LS,Succeeded,0,10,5", "", "no CPU request", ""},
		{"spec without GPUs", "p,5,10,0,0,T4,LS,Succeeded,0,10,5", "", "gpu_spec without GPUs", ""},
	} {
		// A good pod keeps the trace's end past the odd one's times.
		text := podHeader + "\r\n" + c.row + "\r\nok,1,1,0,0,,LS,Succeeded,0,100,1\r\n"
		res, err := Alibaba(strings.NewReader(text), Options{})
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		checkAccounted(t, res.Report)
		rep := res.Report
		if rep.Records != 2 {
			t.Errorf("%s: %d records", c.name, rep.Records)
		}
		wantSkip, wantNote := map[string]int{}, map[string]int{}
		if c.skip != "" {
			wantSkip[c.skip] = 1
		}
		if c.note != "" {
			wantNote[c.note] = 1
		}
		if a := also[c.name]; a != "" {
			wantNote[a] = 1
		}
		if !maps.Equal(rep.Skipped, wantSkip) || !maps.Equal(rep.Anomalies, wantNote) {
			t.Errorf("%s: skipped %v anomalies %v, want %v %v", c.name, rep.Skipped, rep.Anomalies, wantSkip, wantNote)
		}
		_, err = Alibaba(strings.NewReader(text), Options{Strict: true})
		var pe *ParseError
		switch {
		case c.strictField == "" && err != nil:
			t.Errorf("%s: strict: %v", c.name, err)
		case c.strictField == "":
		case !errors.As(err, &pe):
			t.Errorf("%s: strict: %v, want a *ParseError", c.name, err)
		case pe.Line != 2 || pe.Field != strings.TrimPrefix(c.strictField, "<row>"):
			t.Errorf("%s: strict: line %d field %q, want line 2 field %q (%v)", c.name, pe.Line, pe.Field, c.strictField, err)
		}
	}
}

// TestAlibabaHeaderVariants reads the columns by name: another order,
// letter case, a byte-order mark, an index column, quotes, CRLF, columns
// missing.
func TestAlibabaHeaderVariants(t *testing.T) {
	base := alibaba(t, podHeader+"\np,6000,12288,1,460,\"T4|G2\",LS,Succeeded,100,400,150\n", Options{})
	for _, text := range []string{
		"\xef\xbb\xbf,Scheduled_Time, Pod_Phase ,creation_time,deletion_time,QOS,gpu_spec,gpu_milli,num_gpu,memory_mib,cpu_milli,name,extra\r\n" +
			"0,150,Succeeded,100,400,LS,T4|G2,460,1,12288,6000,p,z\r\n",
		`"name","cpu_milli","memory_mib","num_gpu","gpu_milli","gpu_spec","qos","pod_phase","creation_time","deletion_time","scheduled_time"` +
			"\n\n" + `"p","6000","12288","1","460","T4|G2","LS","Succeeded","100","400","150"` + "\n",
	} {
		res := alibaba(t, text, Options{})
		if len(res.Jobs) != 1 || res.Jobs[0].Submit != base.Jobs[0].Submit || res.Jobs[0].Wait != base.Jobs[0].Wait ||
			res.Jobs[0].RunTime != base.Jobs[0].RunTime || res.Jobs[0].Status != 1 ||
			!slices.Equal(res.Jobs[0].Demand.GPUModels, []string{"T4", "G2"}) || res.IDs[0] != "p" {
			t.Errorf("%q: %+v %+v", text, res.Jobs, res.Report)
		}
	}
	// Columns missing: the multigpu20 list's five columns.
	res := alibaba(t, "name,cpu_milli,memory_mib,num_gpu,gpu_milli\nb,2,3,2,1000\na,1,1,1,300\n", Options{})
	if len(res.Jobs) != 2 || res.IDs[0] != "b" || res.Jobs[1].Submit != 0 || res.Jobs[1].Status != -1 ||
		res.Jobs[1].Wait != -1 || res.Jobs[1].RunTime != -1 || res.Jobs[0].Demand.GPUs != 2000 || len(res.Report.Anomalies) != 0 {
		t.Errorf("five columns: %+v %+v", res.Jobs, res.Report)
	}
	if len(res.Report.Notes) != 6 {
		t.Errorf("notes %q, want one per absent column", res.Report.Notes)
	}
	// Only cpu_milli is required.
	if _, err := Alibaba(strings.NewReader("name,memory_mib,num_gpu,qos\np,1,1,LS\n"), Options{}); err == nil {
		t.Error("no cpu_milli column: no error")
	}
}

// TestAlibabaFormat turns down other inputs with what they are.
func TestAlibabaFormat(t *testing.T) {
	for _, c := range []struct{ text, saw string }{
		{"sn,cpu_milli,memory_mib,gpu,model\nn,1,1,0,\n", "alibaba-nodes"},
		{"kind,count,cores\ncpu,2,4\n", "nodes"},
		{"; Version: 2.2\n1 0 0 1 1 -1 -1 1 1 -1 1 1 1 1 1 1 -1 -1\n", "swf"},
		{"a,b,c\n1,2,3\n", ""},
		{"", ""},
	} {
		_, err := Alibaba(strings.NewReader(c.text), Options{})
		var fe *FormatError
		if !errors.As(err, &fe) || fe.Saw != c.saw || fe.Want != "alibaba" {
			t.Errorf("%q: %v, want a FormatError saw %q", c.text, err, c.saw)
		}
	}
	// The accounting converters name the pod list.
	_, err := Sacct(strings.NewReader(podHeader+"\n"), Options{})
	var fe *FormatError
	if !errors.As(err, &fe) || fe.Saw != "alibaba" || !strings.Contains(err.Error(), "convert.Alibaba") {
		t.Errorf("sacct of a pod list: %v", err)
	}
	// Rows of which none reads: no jobs in silence.
	_, err = Alibaba(strings.NewReader(podHeader+"\np,x,1,0,0,,LS,Succeeded,0,1,0\n"), Options{})
	if !errors.As(err, &fe) {
		t.Errorf("no readable row: %v", err)
	}
	// A header alone is an empty list.
	if res := alibaba(t, podHeader+"\n", Options{}); len(res.Jobs) != 0 {
		t.Errorf("header only: %+v", res.Jobs)
	}
}

// TestAlibabaSWF writes the jobs as SWF and reads them back.
func TestAlibabaSWF(t *testing.T) {
	res := alibaba(t, podHeader+`
a,6000,12288,1,460,,LS,Succeeded,100,400,150
c,16000,1024,0,0,,Burstable,Pending,200,300,
`, Options{MaxProcs: 64000})
	var sb strings.Builder
	if err := swf.WriteAll(&sb, res.Header, res.Jobs); err != nil {
		t.Fatal(err)
	}
	r := swf.NewReader(strings.NewReader(sb.String()))
	jobs, err := r.ReadAll()
	if err != nil || len(jobs) != 2 {
		t.Fatalf("%v %+v\n%s", err, jobs, sb.String())
	}
	for k := range jobs {
		g, w := jobs[k], res.Jobs[k]
		g.Demand, w.Demand = nil, nil
		if g != w {
			t.Errorf("job %d reads back %+v, want %+v", k+1, g, w)
		}
	}
	if h, _ := r.Header(); h.MaxProcs != 64000 || len(h.Queue) != 4 {
		t.Errorf("header %+v", h)
	}
}

// TestAlibabaSniff names the three CSV tables from their header lines,
// and nothing else as one of them.
func TestAlibabaSniff(t *testing.T) {
	for _, c := range []struct{ head, want string }{
		{podHeader + "\n", "alibaba"},
		{"name,cpu_milli,memory_mib,num_gpu,gpu_milli\n", "alibaba"},
		{"\n\xef\xbb\xbfSN, CPU_MILLI ,memory_mib,gpu,model\r\n", "alibaba-nodes"},
		{"kind,count,cores,memory,gpus,gpu_model\n", "nodes"},
		{"name,cpu,memory\n", ""},
		{"JobID,State,Submit\n", ""},
	} {
		if got, _, _ := sniff([]byte(c.head)); got != c.want {
			t.Errorf("%q: sniff %q, want %q", c.head, got, c.want)
		}
	}
}

// TestAlibabaGzip reads a gzip pod list as the plain one.
func TestAlibabaGzip(t *testing.T) {
	text := podHeader + "\na,6000,12288,1,460,,LS,Succeeded,100,400,150\n"
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write([]byte(text))
	zw.Close()
	res, err := Alibaba(&buf, Options{})
	if err != nil || len(res.Jobs) != 1 || res.Jobs[0].RunTime != 250 || res.Jobs[0].Demand.GPUs != 460 {
		t.Fatalf("%v %+v", err, res)
	}
}

// TestAlibabaFormatMatrix gives the pod and node lists to every other
// reader, and every other format's fixture to Alibaba and Nodes: each is a
// FormatError naming what the input is.
func TestAlibabaFormatMatrix(t *testing.T) {
	pods := []byte(podHeader + "\na,6000,12288,1,460,,LS,Succeeded,100,400,150\n")
	nodes := []byte("sn,cpu_milli,memory_mib,gpu,model\nn0,64000,262144,2,P100\n")
	own := []byte("kind,count,cores\ncpu,4,128\n")
	for name, conv := range converters {
		for saw, data := range map[string][]byte{"alibaba": pods, "alibaba-nodes": nodes, "nodes": own} {
			_, err := conv(bytes.NewReader(data), Options{})
			var fe *FormatError
			if !errors.As(err, &fe) || fe.Saw != saw || fe.Want != name || !strings.Contains(err.Error(), readsWith[saw]) {
				t.Errorf("%s as %s: %v", saw, name, err)
			}
		}
	}
	for _, fx := range append(slices.Clone(fixtures), snapshotFixtures...) {
		data, err := os.ReadFile(fx.path)
		if err != nil {
			t.Fatal(err)
		}
		_, err = Alibaba(bytes.NewReader(data), Options{})
		var fe *FormatError
		if !errors.As(err, &fe) || fe.Saw != fx.format || fe.Want != "alibaba" {
			t.Errorf("%s as alibaba: %v", fx.path, err)
		}
		_, _, err = Nodes(bytes.NewReader(data), Options{})
		if !errors.As(err, &fe) || fe.Saw != fx.format || fe.Want != "nodes" {
			t.Errorf("%s as nodes: %v", fx.path, err)
		}
	}
	// A truncated gzip stream is an error that says so.
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write(bytes.Repeat(pods, 50))
	zw.Close()
	if _, err := Alibaba(bytes.NewReader(z.Bytes()[:z.Len()/2]), Options{}); err == nil || !strings.Contains(err.Error(), "gzip") {
		t.Errorf("truncated gzip: %v", err)
	}
}

// TestAlibabaDemandsCounted: every pod is written with its demand, and
// Report.Demands says so (it said 0 for the 8,152 pods of
// openb_pod_list_default.csv, each written with a ;= line).
func TestAlibabaDemandsCounted(t *testing.T) {
	res := alibaba(t, podHeader+"\np,1000,10,1,460,,LS,Succeeded,0,10,5\nq,2000,10,0,0,,BE,Pending,3,4,\n", Options{})
	if res.Report.Demands != 2 || res.Report.Jobs != 2 {
		t.Errorf("demands %d of %d jobs, want 2 of 2", res.Report.Demands, res.Report.Jobs)
	}
}

// A row of another width than the header is one error, its width: a field
// that then fails to read (the columns are shifted) was a second error of
// the same line ("2 fields, the header has 11", then "field cpu_milli
// (column 2): \"row\": not a number"), and convert printed both. The same
// holds for the other CSV readers (GPUTrace, Nodes), which share csvRow.
func TestAlibabaWidthOneError(t *testing.T) {
	text := podHeader + "\nbad,row\nok,1,1,0,0,,LS,Succeeded,0,100,1\nok2,x,1,0,0,,LS,Succeeded,0,100,1\n"
	res, err := Alibaba(strings.NewReader(text), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range res.Report.Errors {
		got = append(got, e.Error())
	}
	if len(got) != 2 || !strings.Contains(got[0], "line 2: 2 fields, the header has 11") || !strings.Contains(got[1], "line 4") {
		t.Errorf("errors %q; want one for line 2 (its width) and one for line 4", got)
	}
	if n := res.Report.Skipped["malformed record"]; n != 2 {
		t.Errorf("%d malformed records; want 2 (lines 2 and 4)", n)
	}
}

package convert

import (
	"errors"
	"maps"
	"reflect"
	"strings"
	"testing"

	"github.com/batchq/batchq/swf"
)

func TestNodesBatchq(t *testing.T) {
	text := `# a small machine
Kind,Count,Cores,Memory,GPUs,GPU_Model,named:Licence,named:bb
cpu,400,128,257024,0,,0,
gpu,40,64,515072,4,A100,2,100

big,2,256,1048576
`
	kinds, rep, err := Nodes(strings.NewReader(text), Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []swf.Node{
		{Name: "cpu", Count: 400, Cores: 128, Memory: 257024},
		{Name: "gpu", Count: 40, Cores: 64, Memory: 515072, GPUs: 4, GPUModel: "A100", Named: map[string]int64{"Licence": 2, "bb": 100}},
		{Name: "big", Count: 2, Cores: 256, Memory: 1048576},
	}
	if !reflect.DeepEqual(kinds, want) {
		t.Errorf("kinds\n got %+v\nwant %+v", kinds, want)
	}
	// big's line stops at memory: counted, the rest taken as absent.
	checkCounts(t, "anomalies", rep.Anomalies, map[string]int{"fewer fields than the header": 1})
	if rep.Format != "nodes" || rep.Records != 3 || rep.Jobs != 3 || len(rep.Skipped) != 0 {
		t.Errorf("report %+v", rep)
	}
}

func TestNodesAlibaba(t *testing.T) {
	text := "sn,cpu_milli,memory_mib,gpu,model,rack\r\n" +
		"n0,64000,262144,2,P100,r1\r\nn1,32000,262144,0,,r1\r\nn2,64000,262144,2,P100,r2\r\nn3,8000,1024,0,T4,r2\r\nn4,8000,1024,2,,r2\r\n"
	kinds, rep, err := Nodes(strings.NewReader(text), Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []swf.Node{
		{Name: "P100x2-64c-256Gi", Count: 2, Cores: 64000, Memory: 262144, GPUs: 2, GPUModel: "P100"},
		{Name: "cpu-32c-256Gi", Count: 1, Cores: 32000, Memory: 262144},
		{Name: "cpu-8c-1Gi", Count: 1, Cores: 8000, Memory: 1024},
		{Name: "gpux2-8c-1Gi", Count: 1, Cores: 8000, Memory: 1024, GPUs: 2},
	}
	if !reflect.DeepEqual(kinds, want) {
		t.Errorf("kinds\n got %+v\nwant %+v", kinds, want)
	}
	checkCounts(t, "anomalies", rep.Anomalies, map[string]int{"GPU model without GPUs": 1, "GPUs without a model": 1})
	if rep.Format != "alibaba-nodes" || rep.Records != 5 || rep.Jobs != 5 || len(rep.Notes) != 1 {
		t.Errorf("report %+v", rep)
	}
}

// TestNodesOddRows counts every odd line with its reason; strict mode
// stops at it, naming line and column.
func TestNodesOddRows(t *testing.T) {
	for _, c := range []struct {
		header, row string
		skip, note  string
		strictField string
	}{
		{"sn,cpu_milli,memory_mib,gpu,model", "n9,-1,1,0,", skipMalformed, "", "cpu_milli (column 2)"},
		{"sn,cpu_milli,memory_mib,gpu,model", "n9,,1,0,", skipMalformed, "", "cpu_milli (column 2)"},
		{"sn,cpu_milli,memory_mib,gpu,model", "n9,1,1,2000,V", skipMalformed, "", "gpu (column 4)"},
		{"sn,cpu_milli,memory_mib,gpu,model", "n9,1.5,1,0,", skipMalformed, "", "cpu_milli (column 2)"},
		{"sn,cpu_milli,memory_mib,gpu,model", "n0,1,1,0,", "node named twice", "", ""},
		{"sn,cpu_milli,memory_mib,gpu,model", "n9,1,1,0,,x", "", "more fields than the header", "<row>"},
		{"sn,cpu_milli,memory_mib,gpu,model", `n9,"1`, skipMalformed, "", "column 2"},
		{"kind,count,cores,memory,gpus,gpu_model", ",1,1,1,0,", skipMalformed, "", "kind (column 1)"},
		{"kind,count,cores,memory,gpus,gpu_model", "b,2000000,1,1,0,", skipMalformed, "", "count (column 2)"},
		{"kind,count,cores,memory,gpus,gpu_model", "n0,1,1,1,0,", "kind named twice", "", ""},
		{"kind,count,cores,memory,gpus,gpu_model", "b,0,1,1,0,", "count 0", "", ""},
		{"kind,count,cores,memory,gpus,gpu_model", "b,1,1,1", "", "fewer fields than the header", "<row>"},
		{"kind,count,cores,memory,gpus,gpu_model", "kind,count,cores,memory,gpus,gpu_model", "repeated header line", "", ""},
		{"kind,count,cores,memory,gpus,gpu_model,named:l", "b,1,1,1,0,,-2", skipMalformed, "", "named:l (column 7)"},
	} {
		first := "n0,1,1,0,"
		if strings.HasPrefix(c.header, "kind") {
			first = "n0,1,1,1,0," + strings.Repeat(",", strings.Count(c.header, ",")-5)
		}
		text := c.header + "\n" + first + "\n" + c.row + "\n"
		kinds, rep, err := Nodes(strings.NewReader(text), Options{})
		if err != nil || len(kinds) == 0 {
			t.Errorf("%q: %v", c.row, err)
			continue
		}
		checkAccounted(t, rep)
		wantSkip, wantNote := map[string]int{}, map[string]int{}
		if c.skip != "" {
			wantSkip[c.skip] = 1
		}
		if c.note != "" {
			wantNote[c.note] = 1
		}
		if rep.Records != 2 || !maps.Equal(rep.Skipped, wantSkip) || !maps.Equal(rep.Anomalies, wantNote) {
			t.Errorf("%q: records %d skipped %v anomalies %v, want %v %v", c.row, rep.Records, rep.Skipped, rep.Anomalies, wantSkip, wantNote)
		}
		_, _, err = Nodes(strings.NewReader(text), Options{Strict: true})
		var pe *ParseError
		switch {
		case c.strictField == "" && err != nil:
			t.Errorf("%q: strict: %v", c.row, err)
		case c.strictField == "":
		case !errors.As(err, &pe):
			t.Errorf("%q: strict: %v, want a *ParseError", c.row, err)
		case pe.Line != 3 || pe.Field != strings.TrimPrefix(c.strictField, "<row>"):
			t.Errorf("%q: strict: line %d field %q, want line 3 field %q (%v)", c.row, pe.Line, pe.Field, c.strictField, err)
		}
	}
}

func TestNodesFormat(t *testing.T) {
	for _, c := range []struct{ text, saw string }{
		{podHeader + "\np,1,1,0,0,,LS,Succeeded,0,1,0\n", "alibaba"},
		{"a,b\n1,2\n", ""},
		{"", ""},
		{"; Version: 2.2\n", "swf"},
	} {
		_, _, err := Nodes(strings.NewReader(c.text), Options{})
		var fe *FormatError
		if !errors.As(err, &fe) || fe.Saw != c.saw || fe.Want != "nodes" {
			t.Errorf("%q: %v, want a FormatError saw %q", c.text, err, c.saw)
		}
	}
	// No node: an error, not an empty machine.
	for _, text := range []string{"kind,count,cores\n", "kind,count,cores\nb,0,1\n"} {
		if _, _, err := Nodes(strings.NewReader(text), Options{}); err == nil {
			t.Errorf("%q: no error", text)
		}
	}
	// Every line malformed: a FormatError.
	_, _, err := Nodes(strings.NewReader("kind,count,cores\nb,x,1\n"), Options{})
	var fe *FormatError
	if !errors.As(err, &fe) {
		t.Errorf("every line malformed: %v", err)
	}
}

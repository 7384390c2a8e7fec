package convert

import (
	"strings"
	"testing"
)

// TestAlibabaListedTwice: a pod list given twice writes its pods once,
// the repeats skipped "record listed again (overlapping dumps)" as Sacct
// and the job tables skip them; it wrote every pod twice, noted only
// "pod name repeated", the load doubled. A pod of a repeated name that
// differs (another scenario's list) is kept and noted, and rows alike in
// a list without names are distinct pods, all kept.
func TestAlibabaListedTwice(t *testing.T) {
	const header = "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time\n"
	list := header +
		"openb-pod-0000,8000,30517,1,1000,V100M16,LS,Succeeded,100,400,110\n" +
		"openb-pod-0001,32000,49152,0,0,,BE,Running,200,900,205\n" +
		"openb-pod-0002,4000,8192,1,500,,BE,Failed,300,350,301\n"
	other := "openb-pod-0001,8000,30517,0,0,,BE,Running,250,900,255\n"
	res, err := Alibaba(strings.NewReader(list+list+other), Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := res.Report
	if r.Jobs != 4 || r.Skipped[skipDuplicate] != 3 || r.Anomalies["pod name repeated"] != 1 {
		t.Errorf("list given twice and a pod of a name again: %d jobs, %d skipped %q, %d %q; want 4, 3, 1",
			r.Jobs, r.Skipped[skipDuplicate], skipDuplicate, r.Anomalies["pod name repeated"], "pod name repeated")
	}
	if sum := r.Jobs + r.Skipped[skipDuplicate] + r.Skipped["repeated header line"]; r.Records != sum {
		t.Errorf("Records %d, Jobs + Skipped %d", r.Records, sum)
	}
	nameless := "cpu_milli,num_gpu\n8000,1\n8000,1\n"
	res, err = Alibaba(strings.NewReader(nameless), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Report.Jobs != 2 {
		t.Errorf("two alike rows without names: %d jobs, want 2", res.Report.Jobs)
	}
}

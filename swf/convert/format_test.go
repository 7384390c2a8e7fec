package convert

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"
)

// Every accounting fixture given to every other converter is a
// FormatError that names the fixture's format (issue 30).
func TestFormatMatrix(t *testing.T) {
	for _, fx := range fixtures {
		data, err := os.ReadFile(fx.path)
		if err != nil {
			t.Fatal(err)
		}
		for name, conv := range converters {
			if name == fx.format {
				continue
			}
			_, err := conv(bytes.NewReader(data), Options{})
			var fe *FormatError
			if !errors.As(err, &fe) || fe.Saw != fx.format || fe.Want != name || fe.Line < 1 || fe.Sample == "" {
				t.Errorf("%s as %s: %v", fx.path, name, err)
				continue
			}
			if msg := err.Error(); !strings.Contains(msg, formatNames[fx.format]) || !strings.Contains(msg, readsWith[fx.format]) {
				t.Errorf("%s as %s: message %q", fx.path, name, msg)
			}
		}
	}
}

func TestSniff(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", ""},
		{"\n\n  \n", ""},
		{"\xef\xbb\xbfJobID|State|Submit\n", "sacct"},
		{"JobID    JobName  Partition\n------------ ----\n", "sacct-fixed"},
		{"JOBID PARTITION     NAME     USER ST       TIME  NODES NODELIST(REASON)\n", "squeue"},
		{"; Version: 2.2\n1 0 0 1 1 -1 -1 1 1 -1 1 1 1 1 1 -1 -1 -1\n", "swf"},
		{"1 0 0 1 1 -1 -1 1 1 -1 1 1 1 1 1 -1 -1 -1\n", "swf"},
		{"03/01/2024 08:00:00;Q;1.s;queue=batch\n", "pbs"},
		{"JobId=1 UserId=a(1) Name=x JobState=COMPLETED\n", "jobcomp"},
		{"JobId=1 JobName=x\n   Priority=1 Nice=0\n", "scontrol"},
		{"No jobs in the system\n", "scontrol"},
		{`{"jobs": [{"job_state": "RUNNING"}]}`, "slurmrestd"},
		{`{"jobs": [{"time": {"submission": 5}}]}`, "sacct-json"},
		{`{"jobs": []}`, "json"},
		{"hello world\n", ""},
	} {
		if got, _, _ := sniff([]byte(c.in)); got != c.want {
			t.Errorf("%q: %q, want %q", c.in, got, c.want)
		}
	}
}

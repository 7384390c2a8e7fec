package convert

import (
	"archive/tar"
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
		// binary files: a PNG's first line is letters but 0x89, a GIF's
		// and a PDF's their signatures (every record was "malformed",
		// "a damaged one?"); UTF-8 text is not binary
		{"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "binary"},
		{"GIF89a\n\x00\n\x00", "binary"},
		{"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n", "binary"},
		{"PK\x03\x04\x14\x00", "binary"},
		{"JobID|State|Submit\n1|jos\xc3\xa9|\xe2\x80\x9cx\xe2\x80\x9d\n", "sacct"},
		{"\xe2\x80\x9cJos\xc3\xa9\xe2\x80\x9d caf\xe9\n", ""},
		// Windows-1252 text (curly quotes 0x93, 0x94; a dash 0x96) is
		// text, not binary: a PBS or jobcomp log with one in its first
		// record was refused as binary
		{"03/01/2024 08:00:00;Q;1.s;queue=batch jobname=\x93relax\x94\n", "pbs"},
		{"JobId=1 UserId=a(1) Name=\x93x\x94 \x96 JobState=COMPLETED\n", "jobcomp"},
		{"\x93notes\x94 \x80\n", ""},
		// An SWF comment with commas and a status word in its fourth
		// field is SWF, not a row of PAI's pai_job_table
		{"; Note: jobs,users,groups,Failed,queues,partitions\n1 0 0 1 1 -1 -1 1 1 -1 1 1 1 1 1 -1 -1 -1\n", "swf"},
		// An SWF comment naming the columns of the table it came from is
		// SWF, not that table (it was "supercloud": GPUTrace read the
		// trace as one, "0 jobs", and Sacct said "run with -from gpu")
		{"; Source: columns,id_job,time_submit\n1 0 0 1 1 -1 -1 1 1 -1 1 1 1 1 1 -1 -1 -1\n", "swf"},
		{";,job_id,gpu_num,submit_time,start_time\n", "swf"},
		{"id_job\ttime_submit\n1\t1700000000\n", "supercloud"},
	} {
		if got, _, _ := sniff([]byte(c.in)); got != c.want {
			t.Errorf("%q: %q, want %q", c.in, got, c.want)
		}
	}
}

// A tar archive is told by its header's magic with the NUL after it
// (POSIX's and GNU's); text with "ustar" at byte 257 is read as its
// format: a sacct log with a user "g...ustar" there was refused as a tar
// archive.
func TestSniffTar(t *testing.T) {
	var posix, gnu bytes.Buffer
	for _, c := range []struct {
		w   *bytes.Buffer
		fmt tar.Format
	}{{&posix, tar.FormatUSTAR}, {&gnu, tar.FormatGNU}} {
		tw := tar.NewWriter(c.w)
		if err := tw.WriteHeader(&tar.Header{Name: "pai_job_table.csv", Mode: 0o644, Size: 1, Format: c.fmt}); err != nil {
			t.Fatal(err)
		}
		tw.Write([]byte("x"))
		tw.Close()
		if got, _, sample := sniff(c.w.Bytes()); got != "tar" || sample != "pai_job_table.csv" {
			t.Errorf("a tar archive (%v): %q %q", c.fmt, got, sample)
		}
	}
	head := "JobID|User|State|Submit\n" + strings.Repeat("1|x|COMPLETED|2024-03-01T08:00:00\n", 6) + "2|g"
	in := head + strings.Repeat("a", 257-len(head)) + "ustar|COMPLETED|2024-03-01T08:00:00\n"
	if strings.Index(in, "ustar") != 257 {
		t.Fatal("ustar not at 257")
	}
	if got, _, _ := sniff([]byte(in)); got != "sacct" {
		t.Errorf("sacct text with ustar at 257: %q", got)
	}
	if res, err := Sacct(strings.NewReader(in), Options{}); err != nil || res.Report.Records != 7 {
		t.Errorf("Sacct: %v %+v", err, res)
	}
}

// A log in Windows-1252 (a curly quote, 0x93 and 0x94, in a job name of
// its first record) is converted as its format, not refused as binary
// data: 0x80–0x9f are characters in it.
func TestWindows1252NotBinary(t *testing.T) {
	for _, c := range []struct {
		path string
		conv func(*bytes.Reader) (*Result, error)
	}{
		{"testdata/pbs-torque.log", func(r *bytes.Reader) (*Result, error) { return PBS(r, Options{}) }},
		{"testdata/jobcomp.txt", func(r *bytes.Reader) (*Result, error) { return Jobcomp(r, Options{}) }},
	} {
		data, err := os.ReadFile(c.path)
		if err != nil {
			t.Fatal(err)
		}
		want, err := c.conv(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		i := bytes.IndexByte(data, '\n')
		cp := append(append(append([]byte{}, data[:i]...), " \x93x\x94"...), data[i:]...)
		got, err := c.conv(bytes.NewReader(cp))
		if err != nil || len(got.Jobs) != len(want.Jobs) {
			t.Errorf("%s with a Windows-1252 curly quote in its first record: %v; want its %d jobs", c.path, err, len(want.Jobs))
		}
	}
}

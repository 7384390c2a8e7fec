package convert

import (
	"testing"
	"time"
)

func TestParseDuration(t *testing.T) {
	for _, c := range []struct {
		in   string
		want float64
	}{
		{"00:00:00", 0}, {"05:00", 300}, {"59:58.120", 3598.12}, {"00:00.001", 0.001},
		{"01:02:03", 3723}, {"1-00:00:00", 86400}, {"2-03:04:05", 2*86400 + 3*3600 + 4*60 + 5},
		{"1-02", 86400 + 7200}, {"1-02:30", 86400 + 9000}, {"100:00:00", 360000}, {"90", 90},
		{"1:02:03:04", 86400 + 2*3600 + 3*60 + 4}, {"10-00:00:00", 864000},
	} {
		got, err := parseDuration(c.in)
		if err != nil || got != c.want {
			t.Errorf("parseDuration(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{"", "-", "-5", "1-", "a:b", "1:2:3:4:5", "1-1:2:3:4", "1.5:00", "00:01.", "00:01.x",
		"99999999999999999999", "1-99999999999:00:00"} {
		if v, err := parseDuration(bad); err == nil {
			t.Errorf("parseDuration(%q) = %v, want an error", bad, v)
		}
	}
}

// A duration of 0 days ("0-05:00", as sbatch --time and a table exported
// from it write 5 hours) is read as one of more days: the part after the
// '-' begins with hours. "0-05:00" was 5 minutes, "0-05" 5 seconds, and
// "0-1:2:3:4" (days twice) was read.
func TestParseDurationZeroDays(t *testing.T) {
	for in, want := range map[string]float64{"0-05:00": 18000, "0-05": 18000, "0-00:00:30": 30, "000-01:00:00": 3600} {
		if got, err := parseDuration(in); err != nil || got != want {
			t.Errorf("parseDuration(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	if v, err := parseDuration("0-1:2:3:4"); err == nil {
		t.Errorf("parseDuration(%q) = %v, want an error", "0-1:2:3:4", v)
	}
}

func TestParseSize(t *testing.T) {
	for _, c := range []struct {
		in   string
		bare float64
		want float64
	}{
		{"4000M", 1, 4000 << 20}, {"4G", 1, 4 << 30}, {"3.5G", 1, 3.5 * (1 << 30)}, {"1024K", 1, 1 << 20},
		{"4000", 1 << 20, 4000 << 20}, {"512", 1, 512}, {"8388608kb", 1, 8 << 30}, {"4gb", 1, 4 << 30},
		{"10w", 1, 80}, {"2T", 1, 2 << 40}, {"0", 1, 0},
	} {
		got, err := parseSize(c.in, c.bare)
		if err != nil || got != c.want {
			t.Errorf("parseSize(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{"", "M", "4X", "4 G", "-4G", "1e99G", "1.2.3M"} {
		if v, err := parseSize(bad, 1); err == nil {
			t.Errorf("parseSize(%q) = %v, want an error", bad, v)
		}
	}
}

func TestParseTime(t *testing.T) {
	cet := time.FixedZone("CET", 3600)
	for _, c := range []struct {
		in   string
		loc  *time.Location
		want int64
	}{
		{"2024-03-01T08:00:00", time.UTC, 1709280000}, {"2024-03-01T09:00:00", cet, 1709280000},
		{"1709280000", time.UTC, 1709280000}, {"Unknown", time.UTC, -1}, {"None", time.UTC, -1},
		{"", time.UTC, -1}, {"0", time.UTC, -1},
		// SLURM_TIME_FORMAT="%FT%T%z": the offset, not loc, says the zone.
		{"2024-03-01T09:00:00+0100", time.UTC, 1709280000}, {"2024-03-01T03:00:00-05:00", cet, 1709280000},
		{"2024-03-01T08:00:00Z", cet, 1709280000},
	} {
		got, err := parseTime(c.in, c.loc)
		if err != nil || got != c.want {
			t.Errorf("parseTime(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{"2024-13-01T00:00:00", "yesterday", "03/01/2024", "1969-01-01T00:00:00", "99999999999999999999",
		"2024-03-01T08:00:00+25:00", "2024-03-01T08:00:00 +0100", "2024-03-01T08:00:00+01"} {
		if v, err := parseTime(bad, time.UTC); err == nil {
			t.Errorf("parseTime(%q) = %v, want an error", bad, v)
		}
	}
}

func TestProcessorCounts(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
	}{
		{"n01/0-7+n02/0-7", 16}, {"n1/0+n1/1", 2}, {"n05/0-1+n06/0,1", 4}, {"c1/0*8+c2/0*8", 16}, {"n1", 1},
		{"n1/0,2,4-7", 6},
	} {
		if got, err := execHostCPUs(c.in); err != nil || got != c.want {
			t.Errorf("execHostCPUs(%q) = %d, %v; want %d", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{"n1/x", "n1/5-2", "n1/0*y", "n1/0-99999999999999"} {
		if _, err := execHostCPUs(bad); err == nil {
			t.Errorf("execHostCPUs(%q) accepted", bad)
		}
	}
	p := &pbsParser{b: newBuilder("pbs", &Options{})}
	for _, c := range []struct {
		in, per string
		want    int64
		mem     float64
	}{
		{"2:ppn=8", "ppn", 16, 0}, {"4", "ppn", 4, 0}, {"n01:ppn=2+n02:ppn=2", "ppn", 4, 0},
		{"1:ppn=4:gpus=1", "ppn", 4, 0}, {"n01+n02", "ppn", 2, 0}, {"2:ncpus=8:mem=16gb", "ncpus", 16, 32 << 30},
		{"2:ncpus=8+1:ncpus=2:mem=1gb", "ncpus", 18, 1 << 30},
	} {
		r := newRecord(1)
		got, mem := p.spec(&r, "f", c.in, c.per)
		if got != c.want || mem != c.mem {
			t.Errorf("spec(%q) = %d, %v; want %d, %v", c.in, got, mem, c.want, c.mem)
		}
	}
}

func TestIDOrder(t *testing.T) {
	for _, c := range []struct {
		id   string
		a, b int64
	}{{"123", 123, -1}, {"123_4", 123, 4}, {"123+1", 123, 1}, {"107[2].head", 107, 2}, {"12.srv", 12, -1}, {"x", -1, -1}, {"5_", 5, -1}} {
		if a, b := idOrder(c.id); a != c.a || b != c.b {
			t.Errorf("idOrder(%q) = %d, %d; want %d, %d", c.id, a, b, c.a, c.b)
		}
	}
}

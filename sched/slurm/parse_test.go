package slurm

import (
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// nodes names prefix+number for numbers lo..hi, zero-padded to width.
func nodes(prefix string, lo, hi, width int) []string {
	var out []string
	for i := lo; i <= hi; i++ {
		out = append(out, fmt.Sprintf("%s%0*d", prefix, width, i))
	}
	return out
}

// TestParseConfSite reads testdata/slurm.conf, a site's file written by
// hand; the expected values are read off the file, converted by hand.
func TestParseConfSite(t *testing.T) {
	f, err := os.Open("testdata/slurm.conf")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c, ignored, err := ParseConf(f)
	if err != nil {
		t.Fatal(err)
	}
	want := Config{
		WeightAge: 1000, WeightFairshare: 10000, WeightJobSize: 500, WeightPartition: 2000, WeightQOS: 5000,
		MaxAge: 7 * 86400, DecayHalfLife: 14 * 86400, CalcPeriod: 300, ClassicFairshare: true,
		BackfillInterval: 45, BackfillWindow: 2880 * 60, BackfillResolution: 120, BackfillMaxJobTest: 1000,
		BackfillMaxJobUser: 20, BackfillContinue: true, SchedInterval: 30, SchedMinInterval: 2,
		OverTimeLimit: 120, KillWait: 30,
		EnforceLimits: true, // associations,limits,qos
		NodeNames:     slices.Concat(nodes("cn", 1, 128, 3), nodes("gpu", 1, 8, 2), []string{"bigmem1", "bigmem2"}),
		Partitions: []Partition{
			{Name: "debug", Nodes: nodes("cn", 1, 4, 3), MaxTime: 1800, DefaultTime: 600, MaxNodes: 2,
				PriorityJobFactor: 10, PriorityTier: 1},
			{Name: "batch", Nodes: append(nodes("cn", 5, 128, 3), "bigmem1", "bigmem2"), MaxTime: 2 * 86400,
				DefaultTime: 3600, MaxNodes: 64, PriorityJobFactor: 1, PriorityTier: 1, Default: true},
			{Name: "long", Nodes: nodes("cn", 97, 128, 3), MaxTime: 36 * 3600, DefaultTime: 3600,
				PriorityJobFactor: 1, PriorityTier: 1},
			{Name: "gpu", Nodes: nodes("gpu", 1, 8, 2), MaxTime: 0, DefaultTime: 4 * 3600,
				PriorityJobFactor: 5, PriorityTier: 5},
			{Name: "scavenger", DefaultTime: 3600, PriorityTier: 1},
		},
	}
	if !reflect.DeepEqual(c, want) {
		t.Errorf("got  %+v\nwant %+v", c, want)
		for i := range min(len(c.Partitions), len(want.Partitions)) {
			if !reflect.DeepEqual(c.Partitions[i], want.Partitions[i]) {
				t.Errorf("partition %d: got %+v, want %+v", i, c.Partitions[i], want.Partitions[i])
			}
		}
	}
	for _, w := range []string{
		"ignored: ClusterName (line 6)",
		"ignored: NodeName (lines 61-64): nodes come from the simulated machine",
		"ignored: Include (line 58): included files are not read",
		"ignored: SchedulerParameters=default_queue_depth (line 28)",
		"ignored: SchedulerParameters=bf_busy_nodes (line 28)",
		"ignored: PriorityFlags=SMALL_RELATIVE_TO_TIME (line ",
		"ignored: PriorityWeightTRES (line ",
		"ignored: PriorityUsageResetPeriod (line ",
		"ignored: SelectType (line ",
		"ignored: PartitionName AllowAccounts (line 72)",
		"ignored: PartitionName PreemptMode (line 75)",
		"ignored: PartitionName State=DOWN (line 75)",
	} {
		if !slices.ContainsFunc(ignored, func(s string) bool { return strings.HasPrefix(s, w) }) {
			t.Errorf("no %q in\n%s", w, strings.Join(ignored, "\n"))
		}
	}
	for _, s := range ignored {
		for _, used := range []string{"PriorityWeightAge", "bf_continue", "bf_window", "MaxTime", "PartitionName Nodes", "OverTimeLimit", "State=UP", "AccountingStorageEnforce", "OverSubscribe"} {
			if strings.Contains(s, used+" ") || strings.Contains(s, used+"=") {
				t.Errorf("used key reported: %q", s)
			}
		}
	}
}

func TestParseConfSyntax(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		check    func(c Config) bool
	}{
		{"case-insensitive keys", "priorityweightage=7\nPRIORITYWEIGHTQOS = 9", func(c Config) bool { return c.WeightAge == 7 && c.WeightQOS == 9 }},
		{"several pairs on a line", "PriorityWeightAge=1 PriorityWeightJobSize=2\tPriorityFavorSmall=YES",
			func(c Config) bool { return c.WeightAge == 1 && c.WeightJobSize == 2 && c.FavorSmall }},
		{"last value wins", "PriorityWeightAge=1\nPriorityWeightAge=3", func(c Config) bool { return c.WeightAge == 3 }},
		{"enforce associations only", "AccountingStorageEnforce=associations,qos", func(c Config) bool { return !c.EnforceLimits }},
		{"enforce safe", "AccountingStorageEnforce=Associations,SAFE", func(c Config) bool { return c.EnforceLimits }},
		{"batch_sched_delay", "SchedulerParameters=batch_sched_delay=7", func(c Config) bool { return c.BatchSchedDelay == 7 }},
		{"batch_sched_delay 0", "SchedulerParameters=batch_sched_delay=0", func(c Config) bool { return c.BatchSchedDelay == -1 }},
		{"an Epilog", "Epilog=/etc/slurm/epilog.sh", func(c Config) bool { return c.Epilog }},
		{"continuation", "PriorityWeightAge=1 \\\nPriorityWeightQOS=2", func(c Config) bool { return c.WeightAge == 1 && c.WeightQOS == 2 }},
		{"escaped #", `PartitionName=a\#b Nodes=n1`, func(c Config) bool { return c.Partitions[0].Name == "a#b" }},
		{"comment after value", "PriorityWeightAge=5#x=1", func(c Config) bool { return c.WeightAge == 5 }},
		{"quoted value with blanks", `SchedulerParameters="bf_interval=10, bf_continue"`,
			func(c Config) bool { return c.BackfillInterval == 10 && c.BackfillContinue }},
		{"CRLF", "PriorityWeightAge=4\r\nPriorityCalcPeriod=1:30\r\n", func(c Config) bool { return c.WeightAge == 4 && c.CalcPeriod == 120 }},
		{"priority/basic zeroes weights", "PriorityWeightAge=100\nPriorityType=priority/basic", func(c Config) bool { return c.WeightAge == 0 }},
		{"builtin", "SchedulerType=sched/builtin", func(c Config) bool { return c.Builtin }},
		{"bf_interval=-1", "SchedulerParameters=bf_interval=-1", func(c Config) bool { return c.Builtin }},
		{"decay 0 is none", "PriorityDecayHalfLife=0", func(c Config) bool { return c.DecayHalfLife == -1 }},
		{"sched_min_interval=0", "SchedulerParameters=sched_min_interval=0", func(c Config) bool { return c.SchedMinInterval == -1 }},
		{"sched_min_interval 2 µs", "SchedulerParameters=sched_min_interval=2", func(c Config) bool { return c.SchedMinInterval == -1 }},
		{"time forms", "PartitionName=a MaxTime=1-00:00:01 DefaultTime=5:30\nPartitionName=b MaxTime=3-4 DefaultTime=1-2:03",
			func(c Config) bool {
				// Minutes rounded up, as Slurm keeps them.
				return c.Partitions[0].MaxTime == 86400+60 && c.Partitions[0].DefaultTime == 360 &&
					c.Partitions[1].MaxTime == 3*86400+4*3600 && c.Partitions[1].DefaultTime == 86400+2*3600+3*60
			}},
		{"DEFAULT applies to later lines only", "PartitionName=a\nPartitionName=DEFAULT MaxNodes=4\nPartitionName=b",
			func(c Config) bool { return c.Partitions[0].MaxNodes == 0 && c.Partitions[1].MaxNodes == 4 }},
		// Each range pads to its own low end's digits, as Slurm's hostlist does.
		{"hostlist padding and lists", "PartitionName=p Nodes=n[8-10],m[098-101,5],x,n9,r[1-2]c[1-2]",
			func(c Config) bool {
				return slices.Equal(c.Partitions[0].Nodes, []string{"n8", "n9", "n10", "m098", "m099", "m100", "m101", "m5", "x",
					"r1c1", "r1c2", "r2c1", "r2c2"})
			}},
		{"empty file", "", func(c Config) bool { return reflect.DeepEqual(c, Config{}) }},
	} {
		c, _, err := ParseConf(strings.NewReader(tc.in))
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if !tc.check(c) {
			t.Errorf("%s: got %+v", tc.name, c)
		}
	}
}

func TestParseConfNotes(t *testing.T) {
	_, notes, err := ParseConf(strings.NewReader("PriorityWeightAge=10\nPriorityType=priority/basic\nPriorityWeightAge=20\n"))
	if err != nil {
		t.Fatal(err)
	}
	joined := strings.Join(notes, "\n")
	for _, w := range []string{"priority/basic: every PriorityWeight set to 0", "line 3: PriorityWeightAge given again (also line 1)"} {
		if !strings.Contains(joined, w) {
			t.Errorf("no %q in\n%s", w, joined)
		}
	}
	_, notes, _ = ParseConf(strings.NewReader("PriorityWeightAge=10\n"))
	if !strings.Contains(strings.Join(notes, "\n"), "PriorityType not set") {
		t.Errorf("weights without PriorityType not noted: %q", notes)
	}
}

// TestParseConfErrors: malformed values are errors naming the line, and
// hostile inputs are refused with bounded work.
func TestParseConfErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"ClusterName=x\nPriorityWeightAge=ten", "line 2: PriorityWeightAge"},
		{"PriorityWeightAge=-1", "line 1"},
		{"PriorityWeightAge=99999999999", "outside"},
		{"\n\nPartitionName=a MaxTime=1:2:3:4", "line 3: PartitionName=a MaxTime"},
		{"PartitionName=a MaxTime=abc", "not a Slurm time"},
		{"PartitionName=a Nodes=n[1-999999999]", "refused"},
		{"PartitionName=a Nodes=n[1-1000]m[1-1000]", "refused"},
		{"PartitionName=a Nodes=n[1-1000]\n" + strings.Repeat("PartitionName=DEFAULT Nodes=n[1-1000]\n", 300), "refused"},
		{"PartitionName=a Nodes=n[5-1]", "backwards"},
		{"PartitionName=a Nodes=n[1-2", "'[' without ']'"},
		{"PartitionName=a Nodes=n[[1]]", "nested"},
		{"PartitionName=a Nodes=n[a-b]", "not N or N-M"},
		{"PartitionName=a\nPartitionName=a", "line 2: partition \"a\" defined twice"},
		{"PartitionName=a Default=maybe", "not YES or NO"},
		// Continuations alone joined to nothing: Slurm's defaults, in silence.
		{"\\\n\\\n\\\n", "slurm.conf line 1: 3 backslash continuations and no setting"},
		{"# site config\n  \\\n\t\\", "slurm.conf line 2: 2 backslash continuations and no setting"},
		{"PartitionName=a MaxNodes=0", "no job"},
		{"PartitionName=", "without a name"},
		{"PriorityWeightAge", "not Key=Value"},
		{"=3", "without a key"},
		{`SchedulerParameters="bf_interval=3`, "unclosed quote"},
		{"SchedulerParameters=bf_interval=0", "bf_interval"},
		{"SchedulerParameters=bf_window", "needs a value"},
		{"PriorityCalcPeriod=0", "at least 1 minute"},
		{"AccountingStorageEnforce=associations,limitz", "line 1: AccountingStorageEnforce: unknown value \"limitz\""},
		{"PriorityMaxAge=UNLIMITED", "not modelled"},
		{"PriorityMaxAge=99999999999-0", "over"},
		{"PriorityMaxAge=1234567890123", "overflows"},
		{"PriorityWeightAge=1 \\\n" + strings.Repeat("x", 1<<20), "longer than"},
	} {
		_, _, err := ParseConf(strings.NewReader(tc.in))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%.60q: got %v, want an error with %q", tc.in, err, tc.want)
		}
	}
}

func TestConfLines(t *testing.T) {
	for _, tc := range []struct {
		in   []int
		want string
	}{
		{[]int{4}, "line 4"},
		{[]int{1, 2, 3, 7}, "lines 1-3, 7"},
		{[]int{1, 3, 5, 7, 9, 11, 13, 15, 17, 19}, "lines 1, 3, 5, 7, 9, 11, 13, 15 and 2 more"},
	} {
		if got := confLines(tc.in); got != tc.want {
			t.Errorf("confLines(%v) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func FuzzParseConf(f *testing.F) {
	seed, err := os.ReadFile("testdata/slurm.conf")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(seed))
	for _, s := range []string{"PartitionName=a Nodes=n[1-3]", "SchedulerParameters=bf_interval=-1", "x=\"y", "a=b \\\n c=d",
		"PartitionName=DEFAULT Nodes=r[1-9]c[01-99]\nPartitionName=x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		c, _, err := ParseConf(strings.NewReader(in))
		if err != nil {
			return
		}
		n := 0
		for _, p := range c.Partitions {
			n += len(p.Nodes)
			if p.Name == "" || p.MaxTime < 0 || p.DefaultTime < 0 || p.MaxNodes < 0 {
				t.Fatalf("partition %+v", p)
			}
		}
		if n > maxNodeNames*(len(c.Partitions)+1) {
			t.Fatalf("%d node names", n)
		}
		if c.MaxAge < 0 || c.CalcPeriod < 0 || c.BackfillWindow < 0 || c.DecayHalfLife < -1 || c.SchedMinInterval < -1 {
			t.Fatalf("negative time in %+v", c)
		}
	})
}

// TestParseConfRepeatedIgnored: a key the model does not use may repeat
// (SlurmctldHost names the backup controllers) without a note.
func TestParseConfRepeatedIgnored(t *testing.T) {
	_, out, err := ParseConf(strings.NewReader("SlurmctldHost=a\nSlurmctldHost=b\n"))
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"ignored: SlurmctldHost (lines 1-2)"}; !slices.Equal(out, want) {
		t.Errorf("got %q, want %q", out, want)
	}
}

// TestParseConfScontrol reads the partitions as Slurm 22.05 itself
// printed them (scontrol show partition -o, from the slurm.conf lines
// "PartitionName=short Nodes=localhost Default=YES MaxTime=2
// DefaultTime=1" and "PartitionName=long Nodes=localhost MaxTime=10
// DefaultTime=5" of scripts/slurm-cluster.sh): the same values come out
// of Slurm's printed form as of the file's.
func TestParseConfScontrol(t *testing.T) {
	printed, err := os.ReadFile("../../swf/convert/testdata/slurm-22.05/run1-scontrol-partition-oneliner.txt")
	if err != nil {
		t.Skip(err)
	}
	file := "PartitionName=short Nodes=localhost Default=YES MaxTime=2 DefaultTime=1 State=UP\n" +
		"PartitionName=long Nodes=localhost MaxTime=10 DefaultTime=5 State=UP\n"
	want := []Partition{
		{Name: "short", Nodes: []string{"localhost"}, MaxTime: 120, DefaultTime: 60, PriorityJobFactor: 1, PriorityTier: 1, Default: true},
		{Name: "long", Nodes: []string{"localhost"}, MaxTime: 600, DefaultTime: 300, PriorityJobFactor: 1, PriorityTier: 1},
	}
	fromPrinted, ignored, err := ParseConf(strings.NewReader(string(printed)))
	if err != nil {
		t.Fatal(err)
	}
	fromFile, _, err := ParseConf(strings.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(fromPrinted.Partitions, want) {
		t.Errorf("from scontrol: %+v, want %+v", fromPrinted.Partitions, want)
	}
	// The file leaves the factors at Slurm's default, 1.
	if !reflect.DeepEqual(fromFile.Partitions, want) {
		t.Errorf("from slurm.conf: %+v, want %+v", fromFile.Partitions, want)
	}
	if !slices.ContainsFunc(ignored, func(s string) bool { return strings.HasPrefix(s, "ignored: PartitionName OverTimeLimit") }) {
		t.Errorf("a partition's OverTimeLimit not reported: %q", ignored)
	}
}

func TestParseConfNodeSets(t *testing.T) {
	c, out, err := ParseConf(strings.NewReader("NodeSet=gpus Nodes=g[1-3]\nNodeSet=big Nodes=b1,b2 Weight=5\n" +
		"PartitionName=gpu Nodes=gpus,x1\nPartitionName=all Nodes=big,gpus,g1\nPartitionName=none\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Partitions[0].Nodes; !slices.Equal(got, []string{"g1", "g2", "g3", "x1"}) {
		t.Errorf("gpu: %q", got)
	}
	if got := c.Partitions[1].Nodes; !slices.Equal(got, []string{"b1", "b2", "g1", "g2", "g3"}) {
		t.Errorf("all: %q", got)
	}
	if c.Partitions[2].Nodes != nil {
		t.Errorf("none: %q", c.Partitions[2].Nodes)
	}
	joined := strings.Join(out, "\n")
	for _, w := range []string{"ignored: NodeSet Weight (line 2)", "note: line 5: PartitionName=none names no Nodes: taken as every node"} {
		if !strings.Contains(joined, w) {
			t.Errorf("no %q in\n%s", w, joined)
		}
	}
	for _, tc := range []struct{ in, want string }{
		{"NodeSet=gpus Feature=gpu\nPartitionName=gpu Nodes=gpus", "line 2: PartitionName=gpu Nodes: node set gpus is defined by Feature= (line 1)"},
		{"PartitionName=gpu Nodes=gpus\nNodeSet=gpus Nodes=g1", "line 2: NodeSet gpus is defined after line 1 uses it"},
		{"NodeSet=s Nodes=n[1-200000]\nPartitionName=a Nodes=s\nPartitionName=b Nodes=s", "refused"},
		{"NodeSet=", "NodeSet without a name"},
	} {
		if _, _, err := ParseConf(strings.NewReader(tc.in)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want an error with %q", tc.in, err, tc.want)
		}
	}
}

// utf16 is s in UTF-16LE (ASCII only), after bom.
func utf16(bom, s string) string {
	var b strings.Builder
	b.WriteString(bom)
	for i := 0; i < len(s); i++ {
		b.WriteByte(s[i])
		b.WriteByte(0)
	}
	return b.String()
}

// TestParseConfEncoding: a UTF-8 byte-order mark is skipped; UTF-16
// text, with or without its mark, is an error that says so. Without the
// check every key of a UTF-16 file was "ignored" (a NUL after each
// character) and the file ran as Slurm's defaults.
func TestParseConfEncoding(t *testing.T) {
	const conf = "PriorityType=priority/multifactor\nPriorityWeightAge=1000\nPartitionName=a Nodes=ALL"
	c, ignored, err := ParseConf(strings.NewReader("\ufeff" + conf))
	if err != nil || c.WeightAge != 1000 || len(c.Partitions) != 1 || len(ignored) != 0 {
		t.Errorf("UTF-8 BOM: %v, WeightAge %d, %d partitions, ignored %q", err, c.WeightAge, len(c.Partitions), ignored)
	}
	for _, tc := range []struct{ name, in, want string }{
		{"UTF-16LE", utf16("\xff\xfe", conf), "line 1: UTF-16 text"},
		{"UTF-16BE", "\xfe\xff\x00" + utf16("", conf)[:len(conf)*2-1], "line 1: UTF-16 text"},
		{"no mark", utf16("", conf), "line 1: a NUL byte, not text (UTF-16 without a byte-order mark?"},
		{"NUL in line 2", "PriorityWeightAge=1\nPriorityWeightQOS=1\x002", "line 2: a NUL byte at byte 20, not text (a damaged file?)"},
		{"zero-filled tail", "PriorityWeightAge=1\n" + strings.Repeat("\x00", 512), "line 2: a NUL byte at byte 1, not text (a damaged file?)"},
	} {
		c, ignored, err := ParseConf(strings.NewReader(tc.in))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v (WeightAge %d, ignored %q), want an error with %q", tc.name, err, c.WeightAge, ignored, tc.want)
		}
	}
}

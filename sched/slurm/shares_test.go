package slurm

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/batchq/batchq/sched"
)

// wantTree is the tree of testdata's sshare and sacctmgr outputs, read
// off the files by hand.
var wantTree = []Association{
	{Account: "root", User: "root", Shares: 1},
	{Account: "physics", Shares: 60},
	{Account: "physics", User: "alice", Shares: 2},
	{Account: "physics", User: "bob", Shares: 1},
	{Account: "theory", Parent: "physics", Shares: 20},
	{Account: "theory", User: "carol", Shares: -1},
	{Account: "chem", Shares: 40},
	{Account: "chem", User: "dave", Shares: 1},
}

func TestReadShares(t *testing.T) {
	for _, file := range []string{"sshare-long.txt", "sshare-short.txt", "sacctmgr-assoc.txt"} {
		f, err := os.Open("testdata/" + file)
		if err != nil {
			t.Fatal(err)
		}
		c := Config{Associations: []Association{{Account: "stale"}}}
		err = c.ReadShares(f)
		f.Close()
		if err != nil {
			t.Errorf("%s: %v", file, err)
			continue
		}
		if !reflect.DeepEqual(c.Associations, wantTree) {
			t.Errorf("%s:\ngot  %+v\nwant %+v", file, c.Associations, wantTree)
		}
	}
}

func TestReadSharesQOS(t *testing.T) {
	f, err := os.Open("testdata/sacctmgr-qos.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var c Config
	if err := c.ReadShares(f); err != nil {
		t.Fatal(err)
	}
	if want := map[string]int64{"normal": 0, "high": 1000, "debug": 500}; !reflect.DeepEqual(c.QOS, want) {
		t.Errorf("QOS = %v, want %v", c.QOS, want)
	}
	if c.Associations != nil {
		t.Errorf("the QOS table touched the associations: %v", c.Associations)
	}
}

func TestReadSharesErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", "empty input"},
		{"JobID|State\n1|x", "header"},
		{"Account|User|RawShares\nroot||\n physics||1|extra", "sshare line 3: 4 fields, the header has 3"},
		{"Account|User|RawShares\nroot||\n physics||many", "sshare line 3: RawShares"},
		{"Account|User|RawShares\nroot||\n   deep||1", "indented 2 levels"},
		{"Account|User|RawShares\n  physics|alice|1", "no line of its own"},
		{"Account|Par Name|User|Share\nroot|||1\na|b||1", "parent \"b\""},
		{"Account|Par Name|User|Share\na|b||1\nb|a||1", "its own ancestor"},
		{"Account|Par Name|User|Share\na|root||1\na||u|1\na||u|2", "line 4: user u in account a listed again"},
		{"Account|User|RawShares\nroot||\n a||1\n a||1", "line 4: account a listed again"},
		{"Cluster|Account|User|RawShares\nc1|root||\nc2| a||1", "give one cluster"},
		{"Account|User|RawShares\n |u|1", "no account"},
		{"Name|Priority\nnormal|x", "qos line 2: Priority"},
		{"Name|Priority\nnormal|1\nnormal|2", "listed twice"},
	} {
		var c Config
		err := c.ReadShares(strings.NewReader(tc.in))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want an error with %q", tc.in, err, tc.want)
		}
	}
}

// TestReadSharesParsable reads sshare -p (a '|' ending every line) and
// -A output, whose top account has no root line above it.
func TestReadSharesParsable(t *testing.T) {
	var c Config
	in := "Account|User|RawShares|\nchem||40|\n chem|dave|1|\n"
	if err := c.ReadShares(strings.NewReader(in)); err != nil {
		t.Fatal(err)
	}
	want := []Association{{Account: "chem", Shares: 40}, {Account: "chem", User: "dave", Shares: 1}}
	if !reflect.DeepEqual(c.Associations, want) {
		t.Errorf("got %+v, want %+v", c.Associations, want)
	}
}

func FuzzReadShares(f *testing.F) {
	for _, file := range []string{"sshare-long.txt", "sacctmgr-assoc.txt", "sacctmgr-qos.txt"} {
		b, err := os.ReadFile("testdata/" + file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	f.Fuzz(func(t *testing.T, in string) {
		var c Config
		if c.ReadShares(strings.NewReader(in)) != nil {
			return
		}
		for _, a := range c.Associations {
			if a.Account == "" || a.Shares < -1 {
				t.Fatalf("association %+v", a)
			}
		}
	})
}

// TestReadSharesPriority reads sacctmgr's association Priority, where
// given (empty is the parent's: 0).
func TestReadSharesPriority(t *testing.T) {
	in := "Account|Par Name|User|Share|Priority\nroot|||1|\nphysics|root||60|100\nphysics||alice|2|\nphysics||bob|1|7\n"
	var c Config
	if err := c.ReadShares(strings.NewReader(in)); err != nil {
		t.Fatal(err)
	}
	want := []Association{{Account: "physics", Shares: 60, Priority: 100}, {Account: "physics", User: "alice", Shares: 2},
		{Account: "physics", User: "bob", Shares: 1, Priority: 7}}
	if !reflect.DeepEqual(c.Associations, want) {
		t.Errorf("got %+v, want %+v", c.Associations, want)
	}
	if err := c.ReadShares(strings.NewReader("Account|Par Name|User|Share|Priority\na|root||1|high\n")); err == nil ||
		!strings.Contains(err.Error(), "line 2: Priority") {
		t.Errorf("a bad Priority: %v", err)
	}
}

// TestSiteReadersMakeAPolicy: what the readers make of a site's files is
// a Config the policy takes.
func TestSiteReadersMakeAPolicy(t *testing.T) {
	f, err := os.Open("testdata/slurm.conf")
	if err != nil {
		t.Fatal(err)
	}
	site, _, err := ParseConf(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range []string{"testdata/sacctmgr-assoc.txt", "testdata/sacctmgr-qos.txt"} {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		// carol's Fairshare=parent (Shares -1) included.
		if err := site.ReadShares(strings.NewReader(string(b))); err != nil {
			t.Fatal(err)
		}
	}
	if err := site.Validate(); err != nil {
		t.Fatal(err)
	}
	if _, err := New(site, sched.Config{MachineSize: 138 * 64}); err != nil {
		t.Fatal(err)
	}
}

// TestReadSharesEncoding: a UTF-8 byte-order mark before the header is
// skipped (it made the header none of the three); UTF-16 text is an
// error that says so (it was "header \"\xff\xfeA\x00c\x00...\" is none
// of ...").
func TestReadSharesEncoding(t *testing.T) {
	const qos = "Name|Priority\nnormal|0\nhigh|1000\n"
	var c Config
	if err := c.ReadShares(strings.NewReader("\ufeff" + qos)); err != nil || c.QOS["high"] != 1000 {
		t.Errorf("UTF-8 BOM: %v, QOS %v", err, c.QOS)
	}
	for _, tc := range []struct{ name, in, want string }{
		{"UTF-16LE", utf16("\xff\xfe", qos), "shares line 1: UTF-16 text"},
		{"no mark", utf16("", qos), "shares line 1: a NUL byte, not text (UTF-16"},
		{"NUL in a row", "Name|Priority\nnormal|0\nhi\x00gh|1000\n", "shares line 3: a NUL byte at byte 3, not text (a damaged file?)"},
	} {
		var c Config
		err := c.ReadShares(strings.NewReader(tc.in))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an error with %q", tc.name, err, tc.want)
		}
	}
}

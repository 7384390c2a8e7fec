package slurm

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
)

// ReadShares reads the fair-share tree of a Slurm site into
// c.Associations, replacing what was there, from the '|'-separated output
// of one of
//
//	sshare -a -l -P        (or sshare -a -P, or -p)
//	sacctmgr show assoc format=Account,ParentName,User,Share,Priority -P
//
// (Priority optional: it feeds the assoc factor; sshare has none), or its
// QOS priorities into c.QOS from
//
//	sacctmgr show qos format=Name,Priority -P
//
// telling them apart by the header line, which is required (no -n).
//
// sshare prints the tree depth first. Its Account column gives an
// account's place in the tree by indentation: one leading blank per level
// below root (root itself has none), and on a user's line the user's
// account, one blank deeper than the account's own line. sacctmgr names
// each account's parent in its "Par Name" column (a user's line leaves
// it empty: the user sits under its Account).
//
// The root account is implicit: accounts right under it get Parent "",
// users right under it keep Account "root", as Slurm names it. RawShares
// (sshare) or Share (sacctmgr) "parent", which Slurm prints for an
// association set to Fairshare=parent (it competes with its parent's
// shares and usage, as if its jobs were the parent's), becomes Shares -1
// (Config.Associations says how the policy takes it);
// an empty share (sshare's root line) is 0, one share.
//
// It reads the tree, not its usage: RawUsage stays 0, so a simulation
// starts from an idle tree. To start from the site's usage, set each
// user's Association.RawUsage from sshare's RawUsage column
// (ExampleConfig_ReadShares).
//
// The whole output must be one cluster's tree: an association listed
// twice (a per-partition association, sshare -m) is an error, and so is a
// user or account whose account or parent has no line of its own (the
// partial output of sshare -U, -u or -A: give -a). Errors name the line.
// A UTF-8 byte-order mark before the header is skipped; UTF-16 text is an
// error that says so.
func (c *Config) ReadShares(r io.Reader) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxConfLine)
	var rd *sharesReader
	num := 0
	for sc.Scan() {
		num++
		line := strings.TrimSuffix(sc.Text(), "\r")
		if num == 1 {
			// An editor's UTF-8 byte-order mark made the header none
			// of the three ("\ufeffAccount|User|...").
			line = strings.TrimPrefix(line, "\ufeff")
		}
		if err := confText("shares", line, num); err != nil {
			return err
		}
		if strings.TrimSpace(line) == "" {
			continue
		}
		if rd == nil {
			var err error
			if rd, err = newSharesReader(line, num); err != nil {
				return err
			}
			continue
		}
		if err := rd.row(line, num); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return fmt.Errorf("shares line %d: longer than %d bytes", num+1, maxConfLine)
		}
		return fmt.Errorf("shares: %w", err)
	}
	if rd == nil {
		return errors.New("shares: empty input (want sshare -a -P or sacctmgr show assoc ... -P output with its header line)")
	}
	return rd.finish(c)
}

// sharesReader reads the rows after a header line.
type sharesReader struct {
	kind                                 string // "sshare", "sacctmgr" or "qos"
	trailing                             bool   // -p: every line ends in '|'
	n                                    int    // columns
	account, parent, user, shares, clust int    // column indexes, -1 absent
	name, prio                           int    // QOS name and priority; an association's priority (sacctmgr)

	assocs  []Association
	lines   []int          // line of each association
	keys    map[string]int // account + "\x00" + user → line
	stack   []string       // sshare: the account at each depth
	cluster string
	qos     map[string]int64
	rows    int // lines after the header
	header  int // the header's line
}

func newSharesReader(header string, num int) (*sharesReader, error) {
	rd := &sharesReader{keys: map[string]int{}, trailing: strings.HasSuffix(header, "|"), header: num}
	cols := strings.Split(strings.TrimSuffix(header, "|"), "|")
	rd.n = len(cols)
	idx := map[string]int{}
	for i, c := range cols {
		idx[strings.ToLower(strings.TrimSpace(c))] = i
	}
	get := func(names ...string) int {
		for _, n := range names {
			if i, ok := idx[n]; ok {
				return i
			}
		}
		return -1
	}
	rd.account, rd.user, rd.clust = get("account"), get("user"), get("cluster")
	rd.parent, rd.shares = get("par name", "parentname"), get("rawshares")
	rd.name, rd.prio = get("name"), get("priority")
	switch {
	case rd.account >= 0 && rd.user >= 0 && rd.shares >= 0:
		rd.kind = "sshare"
	case rd.account >= 0 && rd.user >= 0 && rd.parent >= 0 && get("share", "fairshare") >= 0:
		rd.kind, rd.shares = "sacctmgr", get("share", "fairshare")
		if rd.name >= 0 {
			rd.prio = -1 // a Name column is no association's
		}
	case rd.name >= 0 && rd.prio >= 0 && rd.account < 0:
		rd.kind, rd.qos = "qos", map[string]int64{}
	default:
		return nil, fmt.Errorf("shares line %d: header %q is none of sshare -P (Account|User|RawShares|...), "+
			"sacctmgr show assoc format=Account,ParentName,User,Share -P, sacctmgr show qos format=Name,Priority -P",
			num, confClip(header))
	}
	return rd, nil
}

func (rd *sharesReader) row(line string, num int) error {
	if rd.trailing {
		line = strings.TrimSuffix(line, "|")
	}
	rd.rows++
	f := strings.Split(line, "|")
	if len(f) != rd.n {
		return fmt.Errorf("%s line %d: %d fields, the header has %d", rd.kind, num, len(f), rd.n)
	}
	if rd.kind == "qos" {
		name := strings.TrimSpace(f[rd.name])
		if name == "" {
			return fmt.Errorf("qos line %d: no QOS name", num)
		}
		if _, dup := rd.qos[name]; dup {
			return fmt.Errorf("qos line %d: QOS %q listed twice", num, confClip(name))
		}
		p, err := confCount(strings.TrimSpace(f[rd.prio]), math.MaxUint32)
		if err != nil {
			return fmt.Errorf("qos line %d: Priority: %w", num, err)
		}
		rd.qos[name] = p
		return nil
	}
	if rd.clust >= 0 {
		cl := strings.TrimSpace(f[rd.clust])
		if rd.cluster == "" {
			rd.cluster = cl
		} else if cl != "" && cl != rd.cluster {
			return fmt.Errorf("%s line %d: cluster %q after %q: give one cluster's tree (-M NAME, or cluster=NAME)",
				rd.kind, num, confClip(cl), confClip(rd.cluster))
		}
	}
	rawAcct := f[rd.account]
	acct, user := strings.TrimSpace(rawAcct), strings.TrimSpace(f[rd.user])
	if acct == "" {
		return fmt.Errorf("%s line %d: no account", rd.kind, num)
	}
	shares, err := shareValue(strings.TrimSpace(f[rd.shares]))
	if err != nil {
		return fmt.Errorf("%s line %d: %s: %w", rd.kind, num, map[string]string{"sshare": "RawShares", "sacctmgr": "Share"}[rd.kind], err)
	}
	a := Association{Account: acct, User: user, Shares: shares}
	if rd.kind == "sacctmgr" && rd.prio >= 0 {
		// Empty is none set: the parent's, which Priority 0 stands for.
		if v := strings.TrimSpace(f[rd.prio]); v != "" {
			if a.Priority, err = confCount(v, math.MaxUint32-2); err != nil {
				return fmt.Errorf("sacctmgr line %d: Priority: %w", num, err)
			}
		}
	}
	if user == "" {
		if rd.kind == "sshare" {
			depth := len(rawAcct) - len(strings.TrimLeft(rawAcct, " "))
			if depth > len(rd.stack) {
				return fmt.Errorf("sshare line %d: account %q indented %d levels below its parent's line", num, confClip(acct), depth-len(rd.stack))
			}
			rd.stack = append(rd.stack[:depth], acct)
			if depth > 0 {
				a.Parent = rd.stack[depth-1]
			}
		} else {
			a.Parent = strings.TrimSpace(f[rd.parent])
		}
		if a.Parent == "" && acct == "root" {
			return nil // the root account is implicit
		}
		if acct == "root" {
			// sacctmgr output edited by hand: an account "root" was
			// filed under its parent and root's users moved there.
			return fmt.Errorf("%s line %d: the root account has parent %q: root is the tree's top", rd.kind, num, confClip(a.Parent))
		}
		if a.Parent == "root" {
			a.Parent = ""
		}
	}
	key := acct + "\x00" + user
	if prev, dup := rd.keys[key]; dup {
		what := "account " + acct
		if user != "" {
			what = "user " + user + " in account " + acct
		}
		return fmt.Errorf("%s line %d: %s listed again (line %d): per-partition associations are not modelled", rd.kind, num, confClip(what), prev)
	}
	rd.keys[key] = num
	rd.assocs = append(rd.assocs, a)
	rd.lines = append(rd.lines, num)
	return nil
}

// shareValue reads RawShares or Share: a count, "parent" (-1) or empty
// (0, one share).
func shareValue(v string) (int64, error) {
	switch {
	case v == "":
		return 0, nil
	case strings.EqualFold(v, "parent"):
		return -1, nil
	}
	return confCount(v, math.MaxUint32-2)
}

// finish checks that every account named as a parent or a user's account
// has its own line, and stores the result.
func (rd *sharesReader) finish(c *Config) error {
	if rd.rows == 0 {
		// A header alone: the tree (or the QOS) was replaced by none,
		// the simulation run without fair share and no word said.
		// A site with no QOS beyond the default has nothing to give:
		// the advice is then to leave the file out, not to add lines.
		if rd.kind == "qos" {
			return fmt.Errorf("shares: no QOS after the header line (line %d): give the qos output with its lines, or leave the file out if the site has no QOS beyond the default", rd.header)
		}
		return fmt.Errorf("shares: no association after the header line (line %d): give the %s output with its lines", rd.header, rd.kind)
	}
	if rd.kind == "qos" {
		c.QOS = rd.qos
		return nil
	}
	accounts := map[string]bool{"root": true}
	for _, a := range rd.assocs {
		if a.User == "" {
			accounts[a.Account] = true
		}
	}
	for i, a := range rd.assocs {
		switch {
		case a.User != "" && !accounts[a.Account]:
			return fmt.Errorf("%s line %d: user %q is in account %q, which has no line of its own (give sshare -a or every association)",
				rd.kind, rd.lines[i], confClip(a.User), confClip(a.Account))
		case a.User == "" && a.Parent != "" && !accounts[a.Parent]:
			return fmt.Errorf("%s line %d: account %q has parent %q, which has no line of its own",
				rd.kind, rd.lines[i], confClip(a.Account), confClip(a.Parent))
		}
	}
	// A cycle of parents (sacctmgr output edited by hand) would make the
	// policy walk the tree forever. Each account is walked up once.
	parent := map[string]string{}
	for _, a := range rd.assocs {
		if a.User == "" {
			parent[a.Account] = a.Parent
		}
	}
	state := map[string]int8{} // 1 on the current walk, 2 reaches root
	for i, a := range rd.assocs {
		if a.User != "" {
			continue
		}
		var path []string
		at := a.Account
		for at != "" && state[at] != 2 {
			if state[at] == 1 {
				return fmt.Errorf("%s line %d: account %q is its own ancestor", rd.kind, rd.lines[i], confClip(at))
			}
			state[at] = 1
			path = append(path, at)
			at = parent[at]
		}
		for _, p := range path {
			state[p] = 2
		}
	}
	c.Associations = rd.assocs
	return nil
}

package slurm

import (
	"math"
	"slices"
)

// The fair-share tree of priority/multifactor (Slurm 22.05,
// priority_multifactor.c, fair_tree.c, assoc_mgr.c). Usage is CPU-seconds,
// decayed: every CalcPeriod all usage is multiplied by d^Δ, d = 1 −
// 0.693/DecayHalfLife and Δ the seconds since the last calculation, then
// each running job adds its CPUs × Δ' × d^Δ' (Δ' the part of the period it
// ran), and a job that ends adds its last part at once. A job's usage goes
// to its user association and every account above it, up to root, so
// root's usage is the whole machine's.

// assoc is one node of the tree: root (index 0), an account, or a user
// (a leaf under an account).
type assoc struct {
	name     string
	user     bool
	parent   int
	children []int
	shares   int64 // RawShares
	level    int64 // the sum of its siblings' RawShares (level_shares)
	prio     int64 // the assoc factor's Priority (inherited)
	usage    float64

	normShares float64 // classic: the product down the tree; Fair Tree: shares/level
	efctv      float64 // classic: effective usage
	efctvOK    bool    // classic: efctv is current (users are computed lazily)
	levelFS    float64 // Fair Tree's S/U
	fsFactor   float64 // Fair Tree's rank / users
}

// tree is the fair-share tree with its users, and the calculation state.
type tree struct {
	a      []assoc
	byName map[[2]string]int // {account, user} → index; user "" is the account
	users  int               // user associations (g_user_assoc_count)
	// defAcct is the first account a user appears under: its account
	// when a job names none that the user has.
	defAcct map[string]string
	maxPrio int64
	dirty   bool // associations were added since finish
}

func newTree(c *Config) *tree {
	t := &tree{byName: map[[2]string]int{}, defAcct: map[string]string{}}
	t.a = append(t.a, assoc{name: "root", parent: -1, shares: 1})
	t.byName[[2]string{"root", ""}] = 0
	// Accounts first, in order, parents before children whatever the
	// order of the lines.
	pending := []Association{}
	for _, a := range c.Associations {
		if a.User == "" {
			pending = append(pending, a)
		}
	}
	for len(pending) > 0 {
		rest := pending[:0]
		for _, a := range pending {
			par := a.Parent
			if par == "" {
				par = "root"
			}
			if a.Account == "root" {
				t.a[0].prio = a.Priority
				continue
			}
			pi, ok := t.byName[[2]string{par, ""}]
			if !ok {
				rest = append(rest, a)
				continue
			}
			t.add(a.Account, "", pi, a.Shares, a.Priority)
		}
		if len(rest) == len(pending) { // Validate refuses this
			break
		}
		pending = rest
	}
	for _, a := range c.Associations {
		if a.User != "" {
			t.user(a.User, a.Account, a.Shares, a.Priority)
		}
	}
	t.finish()
	return t
}

// add appends an association under parent pi and returns its index.
func (t *tree) add(acct, user string, pi int, shares, prio int64) int {
	if shares <= 0 {
		shares = 1
	}
	i := len(t.a)
	name := acct
	if user != "" {
		name = user
		t.users++
		if _, ok := t.defAcct[user]; !ok {
			t.defAcct[user] = acct
		}
	}
	t.dirty = true
	t.a = append(t.a, assoc{name: name, user: user != "", parent: pi, shares: shares, prio: prio})
	t.a[pi].children = append(t.a[pi].children, i)
	t.byName[[2]string{acct, user}] = i
	return i
}

// user returns the user association of user under acct, creating the
// account (under root) and the user (one share) if missing. Call finish
// after creating.
func (t *tree) user(user, acct string, shares, prio int64) int {
	if i, ok := t.byName[[2]string{acct, user}]; ok {
		return i
	}
	pi, ok := t.byName[[2]string{acct, ""}]
	if !ok {
		pi = t.add(acct, "", 0, 1, 0)
	}
	return t.add(acct, user, pi, shares, prio)
}

// finish computes level shares, normalised shares and inherited
// priorities after the tree changed.
func (t *tree) finish() {
	t.dirty = false
	t.maxPrio = 0
	for i := range t.a {
		a := &t.a[i]
		var sum int64
		for _, c := range a.children {
			sum += t.a[c].shares
		}
		for _, c := range a.children {
			t.a[c].level = sum
		}
	}
	t.a[0].level = t.a[0].shares
	for i := range t.a { // parents come before children
		a := &t.a[i]
		if i == 0 {
			a.normShares = 1
			continue
		}
		p := &t.a[a.parent]
		if a.prio == 0 {
			a.prio = p.prio
		}
		t.maxPrio = max(t.maxPrio, a.prio)
	}
	for i := 1; i < len(t.a); i++ {
		a := &t.a[i]
		a.normShares = float64(a.shares) / float64(a.level)
	}
}

// classicShares is the classic normalised shares: the product of
// shares/level from the association up to root's children.
func (t *tree) classicShares(i int) float64 {
	s := 1.0
	for ; i > 0; i = t.a[i].parent {
		s *= float64(t.a[i].shares) / float64(t.a[i].level)
	}
	return s
}

// addUsage adds u CPU-seconds to association i and everything above it.
func (t *tree) addUsage(i int, u float64) {
	for ; i >= 0; i = t.a[i].parent {
		t.a[i].usage += u
	}
}

func (t *tree) decay(f float64) {
	for i := range t.a {
		t.a[i].usage *= f
	}
}

// usageNorm is usage_norm: the share of root's usage, at most 1.
func (t *tree) usageNorm(i int) float64 {
	r := t.a[0].usage
	if r == 0 {
		return 0
	}
	return min(t.a[i].usage/r, 1)
}

// classicAccounts is the classic calculation's first step at a
// PriorityCalcPeriod (_set_children_usage_efctv): every account's
// effective usage from the usage as it is, before the period's decay and
// new usage; users are left to be computed when a job needs them.
func (t *tree) classicAccounts() {
	for i := 1; i < len(t.a); i++ { // parents before children
		a := &t.a[i]
		if a.user {
			a.efctvOK = false
			continue
		}
		t.setEfctv(i)
	}
}

// setEfctv is _set_assoc_usage_efctv: under root, the normalised usage;
// else UE = UA + (UE_parent − UA) × shares/level.
func (t *tree) setEfctv(i int) {
	a := &t.a[i]
	ua := t.usageNorm(i)
	if a.parent == 0 {
		a.efctv = ua
	} else {
		a.efctv = ua + (t.a[a.parent].efctv-ua)*(float64(a.shares)/float64(a.level))
	}
	a.efctvOK = true
}

// classicFactor is 2^(−UE/S) for user association i, its effective usage
// computed now if the period has not computed it yet (as Slurm does, from
// the usage at that moment).
func (t *tree) classicFactor(i int) float64 {
	if !t.a[i].efctvOK {
		t.setEfctv(i)
	}
	s := t.classicShares(i)
	if s <= 0 {
		return 0
	}
	return math.Pow(2, -(t.a[i].efctv / s))
}

// fairTree is _apply_priority_fs: every user's factor is its rank in a
// depth-first walk of the tree, siblings by descending Level Fairshare
// S/U (users before accounts on ties), divided by the number of users.
// Sibling users with equal S/U share a rank, and so does the first user
// under an account tied with the sibling before it. (Slurm 22.05's
// _count_tied_accounts stops at the first account it meets, so tied
// accounts are walked one after the other, not merged.)
func (t *tree) fairTree() {
	rank, rnt := t.users, t.users
	t.walk(0, &rank, &rnt, false)
}

func (t *tree) walk(pi int, rank, rnt *int, accountTied bool) {
	kids := slices.Clone(t.a[pi].children)
	pu := t.a[pi].usage
	for _, c := range kids {
		a := &t.a[c]
		u := 0.0
		if pu != 0 {
			u = a.usage / pu
		}
		if a.normShares == 0 {
			a.levelFS = 0
		} else {
			a.levelFS = a.normShares / u // +Inf when u == 0, as in Slurm
		}
	}
	slices.SortStableFunc(kids, func(x, y int) int {
		a, b := &t.a[x], &t.a[y]
		if a.levelFS != b.levelFS {
			if a.levelFS > b.levelFS {
				return -1
			}
			return 1
		}
		if a.user == b.user {
			return 0
		}
		if a.user {
			return -1
		}
		return 1
	})
	prev := math.NaN()
	for i, c := range kids {
		a := &t.a[c]
		tied := a.levelFS == prev
		if i == 0 && accountTied {
			tied = true
		}
		if a.user {
			if !tied {
				*rank = *rnt
			}
			a.fsFactor = float64(*rank) / float64(t.users)
			*rnt--
		} else {
			t.walk(c, rank, rnt, tied)
		}
		prev = a.levelFS
	}
}

package slurm

// refTree is the fair-share tree as it was before the tree skipped the
// associations no job reaches (fairshare.go at 7ebf1d3, renamed, less
// the job-number maps and the flat tree's partial re-ranking, rerank,
// which a reference has no use for): every association in every sibling
// list, every key sorted in, every association walked at every ranking,
// every account's effective usage at every classic calculation. TestTreeAsReference drives it and the
// tree with the same operations and compares every factor bit for bit.

import (
	"math"
)

// The fair-share refTree of priority/multifactor (Slurm 22.05,
// priority_multifactor.c, fair_tree.c, assoc_mgr.c). Usage is CPU-seconds,
// decayed: every CalcPeriod all usage is multiplied by d^Δ, d = 1 −
// 0.693/DecayHalfLife and Δ the seconds since the last calculation, then
// each running job adds its CPUs × Δ' × d^Δ' (Δ' the part of the period it
// ran), and a job that ends adds its last part at once. A job's usage goes
// to its user association and every account above it; under classic fair
// share also to root, whose usage, the whole machine's, usage_norm divides
// by (Fair Tree never reads it: see refTree.top).
//
// Fairshare=parent (Association.Shares -1), as assoc_mgr.c and
// fair_tree.c take it: an account set to it is no node of the refTree: its
// children hang under the first ancestor that is not parent (its name
// leads there) and count in that level's shares; a user set to it keeps
// its node, so its usage still counts as its account's, but counts no
// shares, and its factor is its account's (see refAssoc.useParent).

// refAssoc is one node of the refTree: root (index 0), an account, or a user
// (a leaf under an account).
type refAssoc struct {
	name string
	user bool
	// useParent is a user set to Fairshare=parent (Shares -1): it
	// counts no shares of its own among its siblings, its classic
	// factor is its account's, and its Fair Tree key is +Inf, above
	// every sibling (fair_tree.c's level_fs = INFINITY).
	useParent bool
	parent    int
	children  []int
	shares    int64 // RawShares
	level     int64 // the sum of its siblings' RawShares (level_shares)
	prio      int64 // the refAssoc factor's Priority (inherited)
	usage     float64

	normShares float64 // classic: the product down the refTree; Fair Tree: shares/level
	efctv      float64 // classic: effective usage
	efctvOK    bool    // classic: efctv is current (users are computed lazily)
	pos        int     // its index among its parent's children
	moved      bool    // its usage changed since the last ordering
}

// refFT is what Fair Tree's walk reads and writes of an association,
// kept apart from refAssoc in refTree.ft (same index) so that the walk, made
// at most calculations, runs over a small array.
type refFT struct {
	// levelFS is Fair Tree's key: S over the stored usage, +Inf without
	// usage. Level Fairshare is S·U_parent/U; siblings share U_parent, so
	// the key orders and ties them as Level Fairshare does.
	levelFS float64
	rank    int32 // a user's rank: its factor is rank / users
	user    bool
}

// refTree is the fair-share refTree with its users, and the calculation state.
type refTree struct {
	a      []refAssoc
	ft     []refFT
	byName map[[2]string]int // {account, user} → index; user "" is the account
	users  int               // user associations (g_user_assoc_count)
	// defAcct is the first account a user appears under: its account
	// when a job names none that the user has.
	defAcct map[string]string
	// viaPrio is the Priority a Fairshare=parent account passes to its
	// children (its own, or its parent's if it has none; 0: the node
	// they hang under gives it): only fair share skips such an account.
	viaPrio map[string]int64
	maxPrio int64
	dirty   bool // associations were added since finish
	// Usage is stored divided by scale, the product of every decay so
	// far: a decay is one multiplication, and the key of an association
	// whose usage only decayed does not change, so only those that ran
	// move in their siblings' order.
	scale float64
	moved []int
	// top is where addUsage stops: root (0) under Fair Tree, which never
	// reads root's usage (only siblings' keys), so that each running job
	// adds to one association fewer at every calculation; above root
	// (-1) under classic fair share, which divides by it.
	top int
}

func newRefTree(c *Config) *refTree {
	t := &refTree{byName: map[[2]string]int{}, defAcct: map[string]string{}, viaPrio: map[string]int64{}, scale: 1}
	if c.ClassicFairshare {
		t.top = -1 // root's usage is usage_norm's divisor
	}
	t.a = append(t.a, refAssoc{name: "root", parent: -1, shares: 1})
	t.ft = append(t.ft, refFT{})
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
			prio := a.Priority
			if prio == 0 {
				prio = t.viaPrio[par]
			}
			if a.Shares < 0 { // Fairshare=parent: its children go to pi
				t.byName[[2]string{a.Account, ""}] = pi
				t.viaPrio[a.Account] = prio
				continue
			}
			t.add(a.Account, "", pi, a.Shares, prio)
		}
		if len(rest) == len(pending) { // Validate refuses this
			break
		}
		pending = rest
	}
	for _, a := range c.Associations {
		if a.User != "" {
			i := t.user(a.User, a.Account, a.Shares, a.Priority)
			if a.RawUsage > 0 {
				t.addUsage(i, a.RawUsage)
			}
		}
	}
	t.finish()
	return t
}

// add appends an association under parent pi and returns its index.
func (t *refTree) add(acct, user string, pi int, shares, prio int64) int {
	useParent := shares < 0 && user != ""
	switch {
	case useParent:
		shares = 0
	case shares <= 0:
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
	t.a = append(t.a, refAssoc{name: name, user: user != "", useParent: useParent, parent: pi, shares: shares, prio: prio,
		pos: len(t.a[pi].children)})
	t.ft = append(t.ft, refFT{levelFS: math.Inf(1), user: user != ""})
	t.a[pi].children = append(t.a[pi].children, i)
	t.a[i].moved = true
	t.moved = append(t.moved, i)
	t.byName[[2]string{acct, user}] = i
	return i
}

// user returns the user association of user under acct, creating the
// account (under root) and the user (one share) if missing. Call finish
// after creating.
func (t *refTree) user(user, acct string, shares, prio int64) int {
	if i, ok := t.byName[[2]string{acct, user}]; ok {
		return i
	}
	pi, ok := t.byName[[2]string{acct, ""}]
	if !ok {
		pi = t.add(acct, "", 0, 1, 0)
	}
	if prio == 0 {
		prio = t.viaPrio[acct]
	}
	return t.add(acct, user, pi, shares, prio)
}

// finish computes level shares, normalised shares and inherited
// priorities after the refTree changed.
func (t *refTree) finish() {
	t.dirty = false
	for i := range t.a { // shares changed: every key with them
		if !t.a[i].moved {
			t.a[i].moved = true
			t.moved = append(t.moved, i)
		}
	}
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
		if a.level == 0 { // only Fairshare=parent users at its level
			a.normShares = 0
			continue
		}
		a.normShares = float64(a.shares) / float64(a.level)
	}
}

// classicShares is the classic normalised shares: the product of
// shares/level from the association up to root's children.
func (t *refTree) classicShares(i int) float64 {
	s := 1.0
	for ; i > 0; i = t.a[i].parent {
		s *= float64(t.a[i].shares) / float64(t.a[i].level)
	}
	return s
}

// addUsage adds u CPU-seconds to association i and everything above it
// (root only if its usage is read: see top).
func (t *refTree) addUsage(i int, u float64) {
	u /= t.scale
	as := t.a // a local: the append below is to t.moved, not t.a
	for i > t.top {
		a := &as[i]
		a.usage += u
		if !a.moved {
			a.moved = true
			t.moved = append(t.moved, i)
		}
		i = a.parent
	}
}

func (t *refTree) decay(f float64) {
	t.scale *= f
	if t.scale < 1e-200 { // fold the scale in before it underflows
		// Every key changes scale with it: all get it again at the next
		// ordering, or those that moved would be ordered against stale
		// ones.
		for i := range t.a {
			t.a[i].usage *= t.scale
			if !t.a[i].moved {
				t.a[i].moved = true
				t.moved = append(t.moved, i)
			}
		}
		t.scale = 1
	}
}

// usageNorm is usage_norm: the share of root's usage, at most 1.
func (t *refTree) usageNorm(i int) float64 {
	r := t.a[0].usage
	if r == 0 {
		return 0
	}
	return min(t.a[i].usage/r, 1) // the scale cancels
}

// classicAccounts is the classic calculation's first step at a
// PriorityCalcPeriod (_set_children_usage_efctv): every account's
// effective usage from the usage as it is, before the period's decay and
// new usage; users are left to be computed when a job needs them.
func (t *refTree) classicAccounts() {
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
func (t *refTree) setEfctv(i int) {
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
func (t *refTree) classicFactor(i int) float64 {
	if t.a[i].useParent { // priority_multifactor.c's fs_assoc_ptr
		i = t.a[i].parent
		if i == 0 { // root: its usage is all usage, its shares all shares
			return math.Pow(2, -t.usageNorm(0))
		}
	}
	if !t.a[i].efctvOK {
		t.setEfctv(i)
	}
	s := t.classicShares(i)
	if s <= 0 {
		return 0
	}
	return math.Pow(2, -(t.a[i].efctv / s))
}

// reorder brings every sibling list back into _cmp_level_fs's order
// after usage changed: each association whose usage changed gets its key
// again and moves to its place, in O(the distance it moves).
func (t *refTree) reorder() {
	as, ft := t.a, t.ft
	for _, i := range t.moved {
		a := &as[i]
		a.moved = false
		if i == 0 {
			continue
		}
		kids := as[a.parent].children
		k := a.pos
		from := k
		var v float64
		switch {
		case a.useParent:
			v = math.Inf(1)
		case a.normShares == 0:
			v = 0
		default:
			v = a.normShares / a.usage // +Inf without usage, as in Slurm
		}
		ft[i].levelFS = v
		for k > 0 && t.before(i, kids[k-1]) {
			kids[k] = kids[k-1]
			as[kids[k]].pos = k
			k--
		}
		if k == from { // it did not rise: it may sink
			for k < len(kids)-1 && t.before(kids[k+1], i) {
				kids[k] = kids[k+1]
				as[kids[k]].pos = k
				k++
			}
		}
		kids[k], a.pos = i, k
	}
	t.moved = t.moved[:0]
}

// fairTree is _apply_priority_fs: every user's factor is its rank in a
// depth-first walk of the refTree, siblings by descending Level Fairshare
// S/U (users before accounts on ties), divided by the number of users.
// Sibling users with equal S/U share a rank, and so does the first user
// under an account tied with the sibling before it. (Slurm 22.05's
// _count_tied_accounts stops at the first account it meets, so tied
// accounts are walked one after the other, not merged.)
func (t *refTree) fairTree() {
	t.reorder()
	t.walk(0, int32(t.users), int32(t.users), false)
}

// walk ranks the users under pi from rank (the last rank given) and
// rnt (the next user's rank without ties), and returns both.
func (t *refTree) walk(pi int, rank, rnt int32, accountTied bool) (int32, int32) {
	prev := math.NaN()
	ft := t.ft
	for i, c := range t.a[pi].children {
		a := &ft[c]
		tied := a.levelFS == prev || (i == 0 && accountTied)
		if a.user {
			if !tied {
				rank = rnt
			}
			a.rank = rank
			rnt--
		} else {
			rank, rnt = t.walk(c, rank, rnt, tied)
		}
		prev = a.levelFS
	}
	return rank, rnt
}

// before is _cmp_level_fs's order: Level Fairshare descending, users
// before accounts; then the order of the refTree's lines (Slurm's qsort
// leaves such ties in no particular order).
func (t *refTree) before(x, y int) bool {
	a, b := &t.ft[x], &t.ft[y]
	if a.levelFS != b.levelFS {
		return a.levelFS > b.levelFS
	}
	if a.user != b.user {
		return a.user
	}
	return x < y
}

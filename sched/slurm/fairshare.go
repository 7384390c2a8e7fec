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
// to its user association and every account above it; under classic fair
// share also to root, whose usage, the whole machine's, usage_norm divides
// by (Fair Tree never reads it: see tree.top).
//
// Fairshare=parent (Association.Shares -1), as assoc_mgr.c and
// fair_tree.c take it: an account set to it is no node of the tree: its
// children hang under the first ancestor that is not parent (its name
// leads there) and count in that level's shares; a user set to it keeps
// its node, so its usage still counts as its account's, but counts no
// shares, and its factor is its account's (see assoc.useParent).
//
// The cost scales with the associations jobs reach, not with the tree. A
// site's tree has tens of thousands of associations, of which a log's
// jobs reach a few hundred users and their accounts; Slurm's own pass
// walks them all every PriorityCalcPeriod, and so did this model, which
// made a simulation's cost associations × periods. An association is
// active once a job maps to one of its users, or a user has RawUsage;
// the others keep usage 0, so their Level Fairshare is +Inf for ever:
// each stays out of its parent's sibling list, counted there (idleUsers,
// idleAccts, idleAcctUsers) rather than sorted and walked, and walk
// gives their users' places as numbers (see walkInf), which is all the
// active users' ranks need. Classic fair share computes the active
// accounts' effective usage only; an account woken between two
// calculations gets what the last would have given it (see wake). A
// chain of only children costs one step: their usage is kept at its top
// (kept, hop) and Fair Tree walks it at once (chainEnd). TestTreeAsReference
// checks every factor, bit for bit, against the full computation.

// assoc is one node of the tree: root (index 0), an account, or a user
// (a leaf under an account).
type assoc struct {
	name string
	user bool
	// useParent is a user set to Fairshare=parent (Shares -1): it
	// counts no shares of its own among its siblings, its classic
	// factor is its account's, and its Fair Tree key is +Inf, above
	// every sibling (fair_tree.c's level_fs = INFINITY).
	useParent bool
	// active: a job maps to a user under it (or to it), or a user under
	// it has RawUsage; only active associations have usage, sit in
	// their parent's children and are walked.
	active bool
	// ff: walked with no usage anywhere under it and not tied with the
	// sibling before, it gives a user a rank of its own (see walkInf):
	// it has a user child, or its first account child (by index) does.
	ff       bool
	hasUser  bool
	parent   int
	children []int // the active children, in _cmp_level_fs's order
	// Every child, in index order: firstKid, then nextSib (-1: none);
	// firstAcct is the first account child; idleScan a child from which
	// on the first inactive account child lies (-1: none).
	firstKid, lastKid, nextSib, firstAcct, idleScan int32
	// The inactive children: users, accounts, and the users under them.
	idleUsers, idleAccts int32
	idleAcctUsers        int32
	subUsers             int32 // the user associations under it (itself if a user)
	shares               int64 // RawShares
	level                int64 // the sum of its siblings' RawShares (level_shares)
	kidShares            int64 // the sum of its children's RawShares: their level
	prio                 int64 // the assoc factor's Priority (inherited)
	usage                float64

	normShares float64 // shares/level
	efctv      float64 // classic: effective usage
	efctvOK    bool    // classic: efctv is current (users are computed lazily)
	moved      bool    // its usage changed since the last ordering
	pos        int     // its index among its parent's active children
	// Classic: born is the calculations (tree.gen) before it was
	// created; kidShares was ksPrev at the last calculation if
	// ksStamp is tree.gen (it changed since), else as it is.
	born, ksStamp int64
	ksPrev        int64
	// hop is the nearest ancestor whose usage Fair Tree keeps (see
	// kept; root stops), for an active association.
	hop int32
	// down is chainEnd, computed when shape was downShape.
	down      int32
	downShape int64
	// csh is classicShares, computed when shape was cshShape.
	csh      float64
	cshShape int64
}

// ftNode is what Fair Tree's walk reads and writes of an association,
// kept apart from assoc in tree.ft (same index) so that the walk, made
// at most calculations, runs over a small array.
type ftNode struct {
	// levelFS is Fair Tree's key: S over the stored usage, +Inf without
	// usage. Level Fairshare is S·U_parent/U; siblings share U_parent, so
	// the key orders and ties them as Level Fairshare does.
	levelFS float64
	rank    int32 // a user's rank: its factor is rank / users
	user    bool
}

// tree is the fair-share tree with its users, and the calculation state.
type tree struct {
	a      []assoc
	ft     []ftNode
	byName map[[2]string]int // {account, user} → index; user "" is the account
	byNum  map[[2]int64]int  // a job's {User, Group} → its user association
	// byNum32 is byNum for a User and Group of 32 bits, User<<32 | Group.
	byNum32 map[int64]int
	// last32 is byNum32's last answer, for key last32Key (if last32OK):
	// a log's consecutive jobs are most often one user's.
	last32Key int64
	last32    int
	last32OK  bool
	// byUser[u] is the last (Group, association) byNum32 answered for
	// User u, below denseUsers: a slot by index where the map hashed
	// (most users submit under one group).
	byUser []userSlot
	users  int // user associations (g_user_assoc_count)
	// defAcct is the first account a user appears under: its account
	// when a job names none that the user has.
	defAcct map[string]string
	// viaPrio is the Priority a Fairshare=parent account passes to its
	// children (its own, or its parent's if it has none; 0: the node
	// they hang under gives it): only fair share skips such an account.
	viaPrio map[string]int64
	maxPrio int64
	// built: newTree is done; associations added since are active at
	// once (a job made them) and finish's work is done as they come.
	built bool
	// act is the active associations, each after its parent (root
	// first); idle counts the others; rootAccts counts root's account
	// children.
	act             []int
	idle, rootAccts int
	path            []int // wake's scratch
	// gen counts classic calculations (classicAccounts); shape counts
	// the associations added (levels change).
	gen, shape int64
	// Usage is stored divided by scale, the product of every decay so
	// far: a decay is one multiplication, and the key of an association
	// whose usage only decayed does not change, so only those that ran
	// move in their siblings' order.
	scale   float64
	folds   int64 // the times decay folded the scale in (catchUp's cycles)
	moved   []int
	ranksOK bool // the ranks are those of the order (moved aside)
	// Ranks again after a calculation: on a tree of root and users alone,
	// all active (flat, the tree of a log without sshare data), only the
	// users whose rank may have changed get it again. Their places lie in
	// [lo, hi] of root's children, the places every user that moved or
	// was or is tied came from and went to since the last ranking;
	// allStale: the tree changed, or is not flat, so every user gets it
	// again.
	flat, allStale bool
	lo, hi         int
	// top is where addUsage stops: root (0) under Fair Tree, which never
	// reads root's usage (only siblings' keys), so that each running job
	// adds to one association fewer at every calculation; above root
	// (-1) under classic fair share, which divides by it.
	top int
	// fsByRank is fsTable's table, for the weight fsByRankW.
	fsByRank  []float64
	fsByRankW float64
}

func newTree(c *Config) *tree {
	t := &tree{byName: map[[2]string]int{}, byNum: map[[2]int64]int{}, byNum32: map[int64]int{},
		defAcct: map[string]string{}, viaPrio: map[string]int64{}, scale: 1, allStale: true, lo: math.MaxInt, hi: -1}
	if c.ClassicFairshare {
		t.top = -1 // root's usage is usage_norm's divisor
	}
	t.a = append(t.a, assoc{name: "root", parent: -1, hop: -1, shares: 1, active: true,
		firstKid: -1, lastKid: -1, nextSib: -1, firstAcct: -1, idleScan: -1, ksStamp: -1, cshShape: -1, downShape: -1})
	t.ft = append(t.ft, ftNode{})
	t.act = append(t.act, 0)
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
	type raw struct {
		i int
		u float64
	}
	var usage []raw
	for _, a := range c.Associations {
		if a.User != "" {
			i := t.user(a.User, a.Account, a.Shares, a.Priority)
			if a.RawUsage > 0 {
				usage = append(usage, raw{i, a.RawUsage})
			}
		}
	}
	t.finish()
	for _, r := range usage { // in the lines' order, as they came
		t.activate(r.i)
		t.addUsage(r.i, r.u)
	}
	return t
}

// add appends an association under parent pi and returns its index.
// Inactive while newTree builds, active at once after (a job made it).
func (t *tree) add(acct, user string, pi int, shares, prio int64) int {
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
	t.ranksOK, t.allStale = false, true
	t.shape++
	t.a = append(t.a, assoc{name: name, user: user != "", useParent: useParent, parent: pi, shares: shares, prio: prio,
		firstKid: -1, lastKid: -1, nextSib: -1, firstAcct: -1, idleScan: -1, born: t.gen, ksStamp: -1, cshShape: -1, downShape: -1})
	t.ft = append(t.ft, ftNode{levelFS: math.Inf(1), user: user != ""})
	t.byName[[2]string{acct, user}] = i
	as := t.a
	a, p := &as[i], &as[pi]
	// Link it last among pi's children (index order).
	if p.lastKid < 0 {
		p.firstKid = int32(i)
	} else {
		as[p.lastKid].nextSib = int32(i)
	}
	p.lastKid = int32(i)
	if a.user {
		a.subUsers = 1
		p.idleUsers++
		p.hasUser = true
	} else {
		p.idleAccts++
		if p.firstAcct < 0 {
			p.firstAcct = int32(i)
		}
		if p.idleScan < 0 {
			p.idleScan = int32(i)
		}
		if pi == 0 {
			t.rootAccts++
		}
	}
	t.idle++
	// Its users' count above it, and in the counts of the inactive.
	if a.user {
		for x := pi; x > 0; x = as[x].parent {
			as[x].subUsers++
			if !as[x].active {
				as[as[x].parent].idleAcctUsers++
			}
		}
	}
	for x := pi; x >= 0; x = as[x].parent { // ff up while it changes
		y := &as[x]
		ff := y.hasUser || (y.firstAcct >= 0 && as[y.firstAcct].ff)
		if ff == y.ff {
			break
		}
		y.ff = ff
	}
	// The children's level.
	if p.ksStamp != t.gen {
		p.ksPrev, p.ksStamp = p.kidShares, t.gen
	}
	p.kidShares += shares
	if pi != 0 && p.firstKid != int32(i) && as[p.firstKid].nextSib == int32(i) {
		// pi's first child has a sibling now: its usage is kept from now
		// on, and its own below it.
		t.keep(int(p.firstKid))
	}
	if t.built {
		// finish's work for this association: its siblings' level (the
		// inactive ones get theirs when woken), its priority.
		for _, c := range p.children {
			t.setLevel(c)
			t.touch(c)
		}
		if a.prio == 0 {
			a.prio = p.prio
		}
		t.maxPrio = max(t.maxPrio, a.prio)
		t.activate(i)
	}
	return i
}

// user returns the user association of user under acct, creating the
// account (under root) and the user (one share) if missing.
func (t *tree) user(user, acct string, shares, prio int64) int {
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

// setLevel sets association i's level and normalised shares from its
// parent's children's shares.
func (t *tree) setLevel(i int) {
	a := &t.a[i]
	a.level = t.a[a.parent].kidShares
	if a.level == 0 { // only Fairshare=parent users at its level
		a.normShares = 0
		return
	}
	a.normShares = float64(a.shares) / float64(a.level)
}

// touch marks active association i's key for the next ordering.
func (t *tree) touch(i int) {
	if a := &t.a[i]; !a.moved {
		a.moved = true
		t.moved = append(t.moved, i)
	}
}

// finish computes level shares, normalised shares and inherited
// priorities once newTree has added every association; add does its
// part of this for each association added after.
func (t *tree) finish() {
	if t.built {
		return
	}
	t.built = true
	t.ranksOK, t.allStale = false, true
	t.shape++
	t.maxPrio = 0
	for i := range t.a { // parents come before children
		a := &t.a[i]
		if i == 0 {
			a.level, a.normShares = a.shares, 1
			continue
		}
		t.setLevel(i)
		if a.prio == 0 {
			a.prio = t.a[a.parent].prio
		}
		t.maxPrio = max(t.maxPrio, a.prio)
	}
	for _, i := range t.act {
		t.touch(i)
	}
	t.setFlat()
}

// setFlat notes whether the tree is root and users alone, all active.
func (t *tree) setFlat() {
	t.flat = t.idle == 0 && t.rootAccts == 0
}

// activate makes user association i active, and every account above it.
func (t *tree) activate(i int) {
	if t.a[i].active {
		return
	}
	path := t.path[:0]
	for x := i; !t.a[x].active; x = t.a[x].parent {
		path = append(path, x)
	}
	for k := len(path) - 1; k >= 0; k-- { // parents first
		t.wake(path[k])
	}
	t.path = path[:0]
	t.setFlat()
}

// wake makes association x, whose parent is active, active: out of its
// parent's counts of the inactive, into its sibling list at its key's
// place (+Inf: it has no usage). Under classic fair share, an account
// that existed at the last calculation gets the effective usage that
// calculation gave it (from usage 0, its parent's then, and its level
// then); one created since keeps 0 until the next, as in Slurm.
func (t *tree) wake(x int) {
	as := t.a
	a := &as[x]
	p := &as[a.parent]
	a.active = true
	t.idle--
	t.act = append(t.act, x)
	if a.user {
		p.idleUsers--
		a.efctvOK = false
	} else {
		p.idleAccts--
		p.idleAcctUsers -= a.subUsers
		if a.born < t.gen {
			level := p.kidShares
			if p.ksStamp == t.gen {
				level = p.ksPrev
			}
			t.setEfctvOf(x, 0, level) // usage_norm of no usage
		}
	}
	t.setLevel(x)
	t.setHop(x)
	kids := p.children
	k, _ := slices.BinarySearchFunc(kids, x, func(c, x int) int {
		if t.before(x, c) {
			return 1
		}
		return -1
	})
	kids = slices.Insert(kids, k, x)
	for j := k; j < len(kids); j++ {
		as[kids[j]].pos = j
	}
	p.children = kids
	t.touch(x)
	t.ranksOK, t.allStale = false, true
}

// classicShares is the classic normalised shares: the product of
// shares/level from the association up to root's children.
// It changes only with the tree's shape: a node keeps it until an
// association is added (shape), so that each factor read does not walk
// up a deep tree.
func (t *tree) classicShares(i int) float64 {
	if a := &t.a[i]; a.cshShape == t.shape {
		return a.csh
	}
	// An only child's factor is shares/shares, exactly 1 (an account's
	// shares are ≥ 1): the product skips it, from i up the kept
	// associations (see kept), with the same bits.
	s := 1.0
	j := i
	if !t.kept(j) {
		j = int(t.a[j].hop)
	}
	for ; j > 0; j = int(t.a[j].hop) {
		s *= float64(t.a[j].shares) / float64(t.a[j].level)
	}
	t.a[i].csh, t.a[i].cshShape = s, t.shape
	return s
}

// addUsage adds u CPU-seconds to active user association i and every
// kept association above it (see kept; root only if its usage is read:
// see top, and root's hop, -1). A user's own usage is kept even if it is
// an only child.
func (t *tree) addUsage(i int, u float64) {
	u /= t.scale
	as := t.a // a local: the append below is to t.moved, not t.a
	for i > t.top {
		a := &as[i]
		a.usage += u
		if !a.moved {
			a.moved = true
			t.moved = append(t.moved, i)
		}
		i = int(a.hop)
	}
}

// addWhole is addUsage(r.assoc, whole × r.planCPUs()) for each job r of run in
// turn up to the first that started after from, and returns how many it
// took. Its loop calls nothing (t.moved has room for every association,
// which it holds at most once), so that its values stay in registers: a
// calculation runs it over every running job.
func (t *tree) addWhole(run []*jobRec, from int64, whole float64) int {
	if cap(t.moved) < len(t.a) {
		t.moved = slices.Grow(t.moved, len(t.a)-len(t.moved))
	}
	as, moved, top, scale := t.a, t.moved, t.top, t.scale
	for k, r := range run {
		if r.start > from {
			t.moved = moved
			return k
		}
		u := whole * float64(r.planCPUs())
		if u <= 0 {
			continue
		}
		u /= scale
		for i := r.assoc; i > top; {
			a := &as[i]
			a.usage += u
			if !a.moved {
				a.moved = true
				moved = moved[:len(moved)+1] // within its capacity
				moved[len(moved)-1] = i
			}
			i = int(a.hop)
		}
	}
	t.moved = moved
	return len(run)
}

// usageOf is association i's usage: a kept association's own, or its
// nearest kept ancestor's (see kept).
func (t *tree) usageOf(i int) float64 {
	if i == 0 || t.kept(i) {
		return t.a[i].usage
	}
	return t.a[t.a[i].hop].usage
}

// kept: association i's usage is kept (and root's under classic fair
// share): it is under root, or has a sibling. An only child's usage is
// its parent's, bit for bit (the same sums in the same order): classic
// fair share reads it there (usageOf), and Fair Tree never (an only
// child's key is compared with no sibling's: walk gives it the same
// ranks whatever it is). So a chain of only children costs a running
// job one step, not one a level; when a sibling comes, the first child
// takes its usage from the nearest kept ancestor (keep).
func (t *tree) kept(i int) bool {
	p := &t.a[t.a[i].parent]
	return t.a[i].parent == 0 || p.firstKid != p.lastKid
}

// setHop sets active association x's hop from its parent's.
func (t *tree) setHop(x int) {
	a := &t.a[x]
	if a.parent == 0 || t.kept(a.parent) {
		a.hop = int32(a.parent)
	} else {
		a.hop = t.a[a.parent].hop
	}
}

// keep starts keeping association c's usage: c got a sibling. Its usage
// is its nearest kept ancestor's; the hops of the active
// associations under it, which went past it, stop at it now.
func (t *tree) keep(c int) {
	if !t.a[c].active {
		return // no usage, and no active association under it
	}
	t.a[c].usage = t.a[t.a[c].hop].usage
	stack := append(t.path[:0], t.a[c].children...)
	for len(stack) > 0 {
		d := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		t.setHop(d)
		stack = append(stack, t.a[d].children...)
	}
	t.path = stack[:0]
}

func (t *tree) decay(f float64) {
	t.scale *= f
	if t.scale < 1e-200 { // fold the scale in before it underflows
		// Every key changes scale with it: all get it again at the next
		// ordering, or those that moved would be ordered against stale
		// ones. The inactive have no usage: nothing to fold.
		for _, i := range t.act {
			t.a[i].usage *= t.scale
			t.touch(i)
		}
		t.scale = 1
		t.folds++
	}
}

// usageNorm is usage_norm: the share of root's usage, at most 1.
func (t *tree) usageNorm(i int) float64 {
	r := t.a[0].usage
	if r == 0 {
		return 0
	}
	return min(t.usageOf(i)/r, 1) // the scale cancels
}

// classicAccounts is the classic calculation's first step at a
// PriorityCalcPeriod (_set_children_usage_efctv): every active account's
// effective usage from the usage as it is, before the period's decay and
// new usage; users are left to be computed when a job needs them. (The
// inactive get theirs if woken: see wake.)
func (t *tree) classicAccounts() {
	t.gen++
	for _, i := range t.act[1:] { // parents before children
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
	t.setEfctvOf(i, t.usageNorm(i), t.a[i].level)
}

// setEfctvOf is setEfctv from usage_norm ua and level shares level.
func (t *tree) setEfctvOf(i int, ua float64, level int64) {
	a := &t.a[i]
	if a.parent == 0 {
		a.efctv = ua
	} else {
		a.efctv = ua + (t.a[a.parent].efctv-ua)*(float64(a.shares)/float64(level))
	}
	a.efctvOK = true
}

// classicFactor is 2^(−UE/S) for user association i, its effective usage
// computed now if the period has not computed it yet (as Slurm does, from
// the usage at that moment).
func (t *tree) classicFactor(i int) float64 {
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
func (t *tree) reorder() {
	as, ft := t.a, t.ft
	inf := math.Inf(1)
	for _, i := range t.moved {
		a := &as[i]
		a.moved = false
		if i == 0 {
			continue
		}
		kids := as[a.parent].children
		k := a.pos
		from := k
		old := ft[i].levelFS
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
		// Each neighbour's key is read once for the tie and the first
		// step (before's first test); the ranks change only if it moves,
		// or a neighbour it stays between has its old key or its new one.
		tied := false
		if k > 0 {
			x := ft[kids[k-1]].levelFS
			tied = x == old || x == v
			if v > x || (v == x && t.before(i, kids[k-1])) {
				for k > 0 && t.before(i, kids[k-1]) {
					kids[k] = kids[k-1]
					as[kids[k]].pos = k
					k--
				}
			}
		}
		if k == from && k < len(kids)-1 { // it did not rise: it may sink
			x := ft[kids[k+1]].levelFS
			tied = tied || x == old || x == v
			if x > v || (x == v && t.before(kids[k+1], i)) {
				for k < len(kids)-1 && t.before(kids[k+1], i) {
					kids[k] = kids[k+1]
					as[kids[k]].pos = k
					k++
				}
			}
		}
		// Inactive siblings have key +Inf: one that gets it or loses it
		// changes places or ties with them.
		if (old == inf || v == inf) && as[a.parent].idleUsers+as[a.parent].idleAccts > 0 {
			tied = true
		}
		if k != from || tied {
			t.ranksOK = false
			if a.parent == 0 {
				t.lo, t.hi = min(t.lo, from, k), max(t.hi, from, k)
			} else {
				t.allStale = true
			}
		}
		kids[k], a.pos = i, k
	}
	t.moved = t.moved[:0]
}

// ranks brings the siblings' order and the users' ranks up to date
// with the usage. The order is that of the keys alone, whenever reorder
// sorts them in, so calculations leave it to the first that reads a
// factor: the usage changes only at calculations, the keys then read
// are those each would have set, and the ranks go stale only if a user
// changed places or ties.
func (t *tree) ranks() {
	if len(t.moved) > 0 {
		t.reorder()
	}
	if !t.ranksOK {
		t.fairTree()
	}
}

// fsFactor is user association i's Fair Tree factor, ranking the users
// first if the order changed since the last ranking.
func (t *tree) fsFactor(i int) float64 {
	t.ranks()
	return float64(t.ft[i].rank) / float64(t.users)
}

// fsTable ranks the users if the order changed since the last ranking
// and returns every rank's Fair Tree factor times w (fsFactor × w, the
// same product), built again only when the users or w change: a
// calculation reads it for every waiting job, sparing a division each.
func (t *tree) fsTable(w float64) []float64 {
	t.ranks()
	if !t.tableCurrent(w) {
		t.fsByRank, t.fsByRankW = t.fsByRank[:0], w
		for rank := range t.users + 1 {
			t.fsByRank = append(t.fsByRank, float64(int32(rank))/float64(t.users)*w)
		}
	}
	return t.fsByRank
}

// tableCurrent reports whether fsByRank is the table of weight w for the
// tree's users.
func (t *tree) tableCurrent(w float64) bool {
	return len(t.fsByRank) == t.users+1 && t.fsByRankW == w
}

// fsCurrent reports whether fsTable(w) would change nothing: the ranks
// (ranks) and the table are current.
func (t *tree) fsCurrent(w float64) bool {
	return len(t.moved) == 0 && t.ranksOK && t.tableCurrent(w)
}

// fairTree is _apply_priority_fs: every user's factor is its rank in a
// depth-first walk of the tree, siblings by descending Level Fairshare
// S/U (users before accounts on ties), divided by the number of users.
// Sibling users with equal S/U share a rank, and so does the first user
// under an account tied with the sibling before it. (Slurm 22.05's
// _count_tied_accounts stops at the first account it meets, so tied
// accounts are walked one after the other, not merged.)
func (t *tree) fairTree() {
	t.reorder()
	if t.flat && !t.allStale {
		t.rerank()
	} else {
		t.walk(0, int32(t.users), int32(t.users), false)
	}
	t.ranksOK, t.allStale = true, false
	t.lo, t.hi = math.MaxInt, -1
}

// rerank is walk on a flat tree whose ranks were right before the users
// in [lo, hi] of root's children moved or changed ties. The user at place
// i has rank users − i, or its tie group's first one's: the places before
// lo keep theirs, and so does the first place after hi that is not tied
// to the one before it and has that rank already, and every one after.
func (t *tree) rerank() {
	if t.lo > t.hi { // no user moved or changed ties
		return
	}
	kids := t.a[0].children
	n := int32(t.users)
	prev, rank := math.NaN(), n
	if t.lo > 0 {
		prev, rank = t.ft[kids[t.lo-1]].levelFS, t.ft[kids[t.lo-1]].rank
	}
	for i := max(t.lo, 0); i < len(kids); i++ {
		a := &t.ft[kids[i]]
		if a.levelFS != prev {
			rank = n - int32(i)
			if i > t.hi && a.rank == rank {
				return
			}
		}
		a.rank = rank
		prev = a.levelFS
	}
}

// walk ranks the users under active association pi from rank (the last
// rank given) and rnt (the next user's rank without ties), and returns
// both. Its active children are in _cmp_level_fs's order; the inactive
// ones, +Inf without usage, sit with the active ones of key +Inf ahead of
// the others: the users first, all tied (the first only with the
// account), then the accounts (walkInf).
func (t *tree) walk(pi int, rank, rnt int32, accountTied bool) (int32, int32) {
	pi = t.chainEnd(pi)
	p := &t.a[pi]
	kids := p.children
	ft := t.ft
	inf := math.Inf(1)
	k := 0
	for k < len(kids) && ft[kids[k]].user && ft[kids[k]].levelFS == inf {
		k++
	}
	prev := math.NaN()
	first := true // no child walked yet (i == 0)
	if n := int32(k) + p.idleUsers; n > 0 {
		if !accountTied {
			rank = rnt
		}
		for _, c := range kids[:k] {
			ft[c].rank = rank
		}
		rnt -= n
		prev, first = inf, false
	}
	j := k
	for j < len(kids) && ft[kids[j]].levelFS == inf {
		j++
	}
	if j > k || p.idleAccts > 0 {
		rank, rnt = t.walkInf(pi, kids[k:j], rank, rnt, !first || accountTied)
		prev, first = inf, false
	}
	for _, c := range kids[j:] {
		a := &ft[c]
		tied := a.levelFS == prev || (first && accountTied)
		if a.user {
			if !tied {
				rank = rnt
			}
			a.rank = rank
			rnt--
		} else {
			rank, rnt = t.walk(c, rank, rnt, tied)
		}
		prev, first = a.levelFS, false
	}
	return rank, rnt
}

// chainEnd is where a chain of only children, accounts, below active
// association pi ends. An only child is walked with its parent's tie,
// whatever its key (it follows no sibling): walk(pi) is walk of the
// chain's end, with the same tie, and a chain 100,000 deep is one step.
// The chain may go on into inactive accounts (under root, or under an
// account a job just made, whose user comes next): an inactive end is
// walked from its counts, the ranks walkInf would give it. So the end
// depends on the tree's shape alone.
func (t *tree) chainEnd(pi int) int {
	as := t.a
	a := &as[pi]
	if a.downShape == t.shape {
		return int(a.down)
	}
	end := pi
	for {
		e := &as[end]
		if e.firstKid < 0 || e.firstKid != e.lastKid {
			break
		}
		c := int(e.firstKid)
		if as[c].user {
			break
		}
		end = c
	}
	a.down, a.downShape = int32(end), t.shape
	return end
}

// walkInf walks pi's account children of key +Inf: act, the active ones
// (in index order, as they tie), and the inactive ones, in index order;
// tied: the first is tied with the sibling before it. Each after the
// first is tied with the one before. An account without usage has none
// under it (an account's usage sums its children's, all ≥ 0, rounded
// upwards as they are), so its users all tie, and its first user has a
// rank of its own only if the account is untied and its ff says so:
// when every active one is without usage, every user of the group gets
// the rank the first one gives, whatever their places. Otherwise (an
// account whose usage is so small that its key is +Inf: usage 0 is the
// only case a run meets) the group is walked in index order, each
// inactive account counted in one step.
func (t *tree) walkInf(pi int, act []int, rank, rnt int32, tied bool) (int32, int32) {
	as := t.a
	p := &as[pi]
	none := true
	users := p.idleAcctUsers
	for _, c := range act {
		none = none && as[c].usage == 0
		users += as[c].subUsers
	}
	if none {
		f := t.firstIdleAcct(pi)
		if len(act) > 0 && (f < 0 || act[0] < f) {
			rank, _ = t.walk(act[0], rank, rnt, tied)
			act = act[1:]
		} else if !tied && as[f].ff {
			rank = rnt
		}
		for _, c := range act { // tied: every user gets rank
			t.walk(c, rank, rnt, true)
		}
		return rank, rnt - users
	}
	for c := p.firstKid; c >= 0; c = as[c].nextSib {
		a := &as[c]
		switch {
		case a.user:
			continue
		case a.active:
			if t.ft[c].levelFS != math.Inf(1) {
				continue
			}
			rank, rnt = t.walk(int(c), rank, rnt, tied)
		default:
			if !tied && a.ff {
				rank = rnt
			}
			rnt -= a.subUsers
		}
		tied = true
	}
	return rank, rnt
}

// firstIdleAcct is pi's first inactive account child by index, -1 if
// none. Associations only ever become active, so the search goes on
// from where the last one stopped.
func (t *tree) firstIdleAcct(pi int) int {
	as := t.a
	c := as[pi].idleScan
	for c >= 0 && (as[c].user || as[c].active) {
		c = as[c].nextSib
	}
	as[pi].idleScan = c
	return int(c)
}

// before is _cmp_level_fs's order: Level Fairshare descending, users
// before accounts; then the order of the tree's lines (Slurm's qsort
// leaves such ties in no particular order).
func (t *tree) before(x, y int) bool {
	a, b := &t.ft[x], &t.ft[y]
	if a.levelFS != b.levelFS {
		return a.levelFS > b.levelFS
	}
	if a.user != b.user {
		return a.user
	}
	return x < y
}

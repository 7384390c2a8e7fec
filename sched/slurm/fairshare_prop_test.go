package slurm

import (
	"fmt"
	"math"
	"testing"

	"pgregory.net/rapid"
)

// TestTreeAsReference drives the tree and refTree (the tree as it was,
// every association walked and computed) with the same random
// operations, those a run makes: the sites' trees (deep chains, wide flat
// levels, Fairshare=parent accounts and users, zero and huge shares,
// users in several accounts, initial usage; or root and users alone),
// jobs mapping to users new or configured (in accounts new or
// configured), usage added (ties, and amounts so small that an account's
// key is +Inf with usage), decay (folds included), classic calculations;
// after most steps (one or several) every mapped user's factor must be
// the reference's, bit for bit, under either algorithm.
func TestTreeAsReference(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		classic := rapid.Bool().Draw(rt, "classic")
		c := Config{ClassicFairshare: classic}
		share := rapid.SampledFrom([]int64{-1, 0, 1, 1, 2, 3, 4_000_000_000})
		accts := []string{""} // "" is root
		// Shapes: flat (root and users alone, every one active: the tree
		// of a log without sshare data, ranked again by rerank), random,
		// a chain, a wide level.
		flat := rapid.IntRange(0, 3).Draw(rt, "flat") == 0
		nAcct := 0
		if !flat {
			nAcct = rapid.IntRange(0, 12).Draw(rt, "accounts")
		}
		for k := range nAcct {
			name := fmt.Sprint("a", k)
			par := rapid.SampledFrom(accts).Draw(rt, "parent")
			s := share.Draw(rt, "share")
			c.Associations = append(c.Associations, Association{Account: name, Parent: par, Shares: s,
				Priority: rapid.Int64Range(0, 3).Draw(rt, "prio")})
			accts = append(accts, name)
		}
		if !flat && rapid.Bool().Draw(rt, "chain") {
			par := rapid.SampledFrom(accts).Draw(rt, "chain parent")
			for k := range rapid.IntRange(1, 60).Draw(rt, "depth") {
				name := fmt.Sprint("c", k)
				s := int64(1)
				if k%7 == 3 {
					s = share.Draw(rt, "chain share")
				}
				c.Associations = append(c.Associations, Association{Account: name, Parent: par, Shares: s})
				par = name
				if k%9 == 4 { // jobs may name an account halfway down
					accts = append(accts, name)
				}
			}
			accts = append(accts, par)
		}
		if !flat && rapid.Bool().Draw(rt, "wide") {
			par := rapid.SampledFrom(accts).Draw(rt, "wide parent")
			for k := range rapid.IntRange(1, 150).Draw(rt, "width") {
				name := fmt.Sprint("w", k)
				c.Associations = append(c.Associations, Association{Account: name, Parent: par, Shares: int64(k%5 + 1)})
				accts = append(accts, name)
				if k%3 == 0 {
					c.Associations = append(c.Associations, Association{Account: name, User: fmt.Sprint("wu", k), Shares: 1})
				}
			}
		}
		names := []string{"u0", "u1", "u2", "u3", "u4", "u5"}
		seen := map[[2]string]bool{}
		nUsers := 15
		if flat { // configured users would stay inactive until a job names them
			nUsers = 0
		}
		for range rapid.IntRange(0, nUsers).Draw(rt, "users") {
			acct := rapid.SampledFrom(accts).Draw(rt, "user account")
			if acct == "" {
				acct = "root"
			}
			u := rapid.SampledFrom(names).Draw(rt, "user")
			if seen[[2]string{acct, u}] {
				continue
			}
			seen[[2]string{acct, u}] = true
			var raw float64
			if rapid.IntRange(0, 3).Draw(rt, "has raw") == 0 {
				raw = rapid.SampledFrom([]float64{1, 100, 12345, 1e-310}).Draw(rt, "raw")
			}
			c.Associations = append(c.Associations, Association{Account: acct, User: u, Shares: share.Draw(rt, "user share"),
				Priority: rapid.Int64Range(0, 3).Draw(rt, "user prio"), RawUsage: raw})
		}
		if err := c.Validate(); err != nil {
			rt.Skip(err)
		}
		tr, ref := newTree(&c), newRefTree(&c)
		var mapped []int
		check := func(step int) {
			if tr.users != ref.users || tr.maxPrio != ref.maxPrio || len(tr.a) != len(ref.a) {
				rt.Fatalf("step %d: users %d/%d, maxPrio %d/%d, associations %d/%d", step, tr.users, ref.users,
					tr.maxPrio, ref.maxPrio, len(tr.a), len(ref.a))
			}
			for _, i := range mapped {
				if tr.a[i].prio != ref.a[i].prio {
					rt.Fatalf("step %d: association %d: priority %d, the reference %d", step, i, tr.a[i].prio, ref.a[i].prio)
				}
			}
			if classic {
				for _, i := range mapped { // the same reads in the same order: they compute lazily
					got, want := tr.classicFactor(i), ref.classicFactor(i)
					if math.Float64bits(got) != math.Float64bits(want) {
						rt.Fatalf("step %d: association %d (%s): classic factor %v, the reference %v", step, i, tr.a[i].name, got, want)
					}
				}
				return
			}
			ref.fairTree() // every user walked
			for _, i := range mapped {
				got, want := tr.fsFactor(i), float64(ref.ft[i].rank)/float64(ref.users)
				if math.Float64bits(got) != math.Float64bits(want) {
					rt.Fatalf("step %d: association %d (%s): Fair Tree factor %v (rank %d), the reference %v (rank %d)",
						step, i, tr.a[i].name, got, tr.ft[i].rank, want, ref.ft[i].rank)
				}
			}
		}
		if classic {
			tr.classicAccounts()
			ref.classicAccounts()
		} else {
			tr.fairTree()
			ref.fairTree()
		}
		if !flat {
			accts = append(accts, "new1", "new2")
		}
		steps := rapid.IntRange(1, 60).Draw(rt, "steps")
		for step := range steps {
			switch rapid.IntRange(0, 5).Draw(rt, "op") {
			case 0, 1: // a job maps to a user (the policy's assocByName)
				acct := rapid.SampledFrom(accts).Draw(rt, "job account")
				if acct == "" {
					acct = "root"
				}
				u := rapid.SampledFrom(append(names, "n1", "n2")).Draw(rt, "job user")
				i := tr.user(u, acct, 1, 0)
				tr.activate(i)
				j := ref.user(u, acct, 1, 0)
				if ref.dirty {
					ref.finish()
				}
				if i != j {
					rt.Fatalf("step %d: user %s in %s is association %d, the reference's %d", step, u, acct, i, j)
				}
				mapped = append(mapped, i)
			case 2, 3: // usage
				if len(mapped) == 0 {
					continue
				}
				i := rapid.SampledFrom(mapped).Draw(rt, "ran")
				u := rapid.SampledFrom([]float64{1, 1, 2, 300, 0.1, 7777.7, 1e-310, 4e-320}).Draw(rt, "use")
				tr.addUsage(i, u)
				ref.addUsage(i, u)
			case 4:
				f := rapid.SampledFrom([]float64{0.5, 0.99, 1e-150, 1e-300, math.SmallestNonzeroFloat64}).Draw(rt, "decay")
				tr.decay(f)
				ref.decay(f)
			case 5:
				if classic {
					tr.classicAccounts()
					ref.classicAccounts()
				}
			}
			// Several steps between two readings too, as between a run's
			// calculations: the moves gather before an ordering.
			if step == steps-1 || rapid.IntRange(0, 2).Draw(rt, "read") > 0 {
				check(step)
			}
		}
	})
}

package forecast

import (
	"slices"

	"github.com/batchq/batchq/swf"
)

// waitGone is how Online takes a started job out of its waiting list: the
// job is marked gone where it is, and the list is closed up before the
// next question reads it (compact), not at each start. Deleting it from
// the slice moved every job behind it, and found it by a walk from the
// head: on a flurry, whose jobs start in no order of their arrival, a
// start cost a walk and a move of half the queue (N jobs of 152 bytes:
// 24% of the CPU of SDSC-BLUE's first 60,000 jobs in one second; N²/2 job
// copies, minutes at a million). A start now finds its job by number (a
// map to its arrival, whose place in seq is a binary search) and a
// question closes up the gaps once, in one pass.
type waitGone struct {
	at   []bool          // per waiting job: started (a gap)
	n    int             // the gaps
	from int             // no gap before it: compact walks from there (a job that starts as it arrives leaves its gap at the end)
	seq  map[int64]int64 // job number → arrival (Online.seq) of the waiting job of that number
	dups bool            // two waiting jobs have had one number: starts walk from the head, as before
	work int             // jobs visited by compact and by walks (the tests' count)
}

// addWaiting puts an arriving job, numbered o.arrived, at the list's end.
func (o *Online) addWaiting(j *swf.Job) {
	o.waiting = append(o.waiting, *j)
	o.seq = append(o.seq, o.arrived)
	g := &o.gone
	g.at = append(g.at, false)
	if g.dups {
		return
	}
	if g.seq == nil {
		g.seq = make(map[int64]int64)
	}
	if _, ok := g.seq[j.ID]; ok {
		// (Online needs unique numbers; two waiting under one were
		// told apart by a walk from the head, the first taken: kept.)
		g.dups, g.seq = true, nil
		return
	}
	g.seq[j.ID] = o.arrived
}

// removeWaiting marks the waiting job of that number started and reports
// whether it was waiting.
func (o *Online) removeWaiting(id int64) bool {
	g := &o.gone
	i := -1
	if g.dups {
		for k := range o.waiting {
			g.work++
			if !g.at[k] && o.waiting[k].ID == id {
				i = k
				break
			}
		}
	} else if s, ok := g.seq[id]; ok {
		delete(g.seq, id)
		i, _ = slices.BinarySearch(o.seq, s)
	}
	if i < 0 {
		return false
	}
	g.at[i] = true
	if g.n == 0 || i < g.from {
		g.from = i
	}
	g.n++
	if o.ahead.on {
		o.ahead.remove(&o.waiting[i], o.stillWaits)
		if len(o.waiting)-g.n < o.aheadOn/4 {
			o.ahead = ahead{} // (a short queue is walked: cheaper than its sums)
		}
	}
	if g.n > len(o.waiting)/2 {
		o.compact() // (the gaps' memory kept below the queue's)
	}
	return true
}

// stillWaits reports whether the job of arrival seq waits.
func (o *Online) stillWaits(seq int64) bool {
	i, ok := slices.BinarySearch(o.seq, seq)
	return ok && !o.gone.at[i]
}

// compact closes up the gaps, keeping the waiting jobs' order.
func (o *Online) compact() {
	g := &o.gone
	if g.n == 0 {
		return
	}
	k := g.from
	g.work += len(o.waiting) - k
	for i := k; i < len(o.waiting); i++ {
		if !g.at[i] {
			o.waiting[k], o.seq[k] = o.waiting[i], o.seq[i]
			k++
		}
	}
	clear(o.waiting[k:]) // (no Demand kept alive by a copy)
	o.waiting, o.seq = o.waiting[:k], o.seq[:k]
	clear(g.at[g.from:])
	g.at, g.n = g.at[:k], 0
}

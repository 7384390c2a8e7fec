package estmodel

import (
	"cmp"
	"math"
	"slices"
	"testing"
)

func TestEmbedUserTimes(t *testing.T) {
	head := headTimes(18 * hour)
	// A full head: 7h replaces a "round" default (13h..17h) before any joint
	// one, the closest of them: 13h.
	got := embedUserTimes(head, []int64{7 * hour})
	if len(got) != 20 || !slices.Contains(got, 7*hour) || slices.Contains(got, 13*hour) || got[0] != 18*hour {
		t.Errorf("7h: %v", got)
	}
	// Times already in the head change nothing.
	if got := embedUserTimes(head, []int64{18 * hour, 15 * minute}); !slices.Equal(got, head) {
		t.Errorf("head times: %v", got)
	}
	// A short head (E_max = 1h, 12 times) just grows.
	short := headTimes(hour)
	got = embedUserTimes(short, []int64{7, 77})
	if len(got) != 14 || !slices.IsSorted(got[1:]) || got[0] != hour {
		t.Errorf("short head: %v", got)
	}
	// Six new times on a full head: the five round defaults go, then the
	// joint default closest to the remaining user time.
	got = embedUserTimes(head, []int64{61, 62, 63, 64, 65, 66})
	for _, h := range []int64{13, 14, 15, 16, 17} {
		if slices.Contains(got, h*hour) {
			t.Errorf("round default %dh kept: %v", h, got)
		}
	}
	if slices.Contains(got, 5*minute) || len(got) != 20 {
		t.Errorf("the joint 5m (closest to 61..66 s) should be replaced: %v", got)
	}
}

func TestEmbedUserSizes(t *testing.T) {
	head := headTimes(18 * hour)
	plan := embedUserSizes(head, map[int64]float64{18 * hour: 9.8}, refParams())
	if s := sum(plan.Sizes); math.Abs(s-89) > 1e-9 || math.Abs(plan.TailMass-11) > 1e-9 {
		t.Errorf("head %.4f tail %.4f", s, plan.TailMass)
	}
	if !slices.IsSortedFunc(plan.Sizes, func(a, b float64) int { return cmp.Compare(b, a) }) {
		t.Errorf("sizes not descending: %v", plan.Sizes)
	}
	r := plan.Fixed[0]
	if plan.Sizes[r-1] != 9.8 {
		t.Errorf("E_max at rank %d has %.3f", r, plan.Sizes[r-1])
	}
	// The non-user sizes are the defaults scaled by (H − x)/(H − p_1).
	def := headSizes(20, refParams())
	if want := def[1] * (89 - 9.8) / (89 - def[0]); math.Abs(plan.Sizes[0]-want) > 1e-9 {
		t.Errorf("largest size %.4f, want %.4f", plan.Sizes[0], want)
	}
	// User bins above H: the others are zeroed, the tail takes the rest (S27).
	plan = embedUserSizes(head, map[int64]float64{18 * hour: 60, hour: 35}, refParams())
	if plan.Sizes[0] != 60 || plan.Sizes[1] != 35 || sum(plan.Sizes) != 95 || math.Abs(plan.TailMass-5) > 1e-9 {
		t.Errorf("over H: %v tail %.3f", plan.Sizes, plan.TailMass)
	}
	// Without a user E_max, E_max keeps rank 1 even when a user bin is larger.
	plan = embedUserSizes(head, map[int64]float64{hour: 50}, refParams())
	if plan.Fixed[6] != 2 || plan.Sizes[1] != 50 {
		t.Errorf("user 1h: fixed %v sizes %v", plan.Fixed, plan.Sizes[:3])
	}
}

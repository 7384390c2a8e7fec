// Package coalloc plans statistical co-allocations across machines without
// reservations (CO-VARQ, Nurmi's thesis Ch. 6; spec qbets-varq-coalloc §4,
// §5.5, §6.6, ambiguities Q18–Q20).
//
// A co-allocation is COUNT reservations (varq.Request: N nodes, W seconds,
// start D) that must all be running at their start times. If each were one
// VARQ request, the joint probability would be the product of theirs, which
// falls fast. CO-VARQ instead asks each reservation to reach
//
//	P_indep = P_all^(1/COUNT)
//
// and boosts a reservation that cannot reach it on one machine with
// redundant VARQ requests on others: if its requests succeed independently
// with probabilities p_r, at least one succeeds with 1 − Π(1 − p_r)
// (Eq. 6.1: two requests at 0.9 give 0.99). The planner fills a table of
// p_{i,r} (the best VARQ can offer for reservation i on resource r: the
// trajectory maximum, Q18), then draws resources greedily, round-robin over
// the reservations in input order, each reservation still below P_indep
// taking the remaining resource it rates highest, without replacement
// (Q19), until every reservation reaches P_indep (Q20) or the pool runs out
// (the plan fails; the thesis retried 10 min later). The plan's expected
// joint probability is P_expected = Π_i P_res_i.
//
// An Executor carries plans out on Sites (machines with their forecasters):
// it launches every VARQ request at its planned time and cancels a
// reservation's redundant requests, queued or not yet submitted, as soon as
// one of them is running by its start time, recording success and the
// allocation used. examples/coalloc repeats the thesis's protocol (one
// co-allocation at a time, a retry 10 min after a refusal) for the rows of
// Table 6.2.
//
// Two options depart from the thesis, because on simulated machines its
// plan promises more than it achieves (examples/coalloc/README.md):
// Config.LatestMeeting plans each request at the latest point of its
// trajectory meeting P_indep instead of the maximum, which does not select
// on noise and spins less; Config.Reboost makes the Executor re-forecast
// an unserved reservation's requests while it waits and draw redundant
// requests on further resources when their joint chance falls below
// P_indep (reboost.go). A site forecaster with a Version method (see Site)
// is not asked again, at the next review, what it answered while
// unchanged.
//
// Decisions cited as Q16…Q20 and sections cited as spec §N are those of
// docs/decisions.md (the Nurmi register and section map).
package coalloc

package main

// thesisCell is one cell of the thesis's Table 5.6 (datastar "normal"
// queue under Maui FCFS+backfill, 272 nodes): mean predicted probability,
// achieved success fraction, accepted count.
type thesisCell struct {
	Pred, Act float64
	Count     int
}

var (
	fractions = []float64{0.10, 0.50, 0.95}
	targets   = []float64{0.50, 0.75, 0.95}
)

// table56[fraction][target], as printed (spec §6.5). The 95 %/0.75 cell's
// predicted 0.43 is below its own target, impossible by construction: a
// typo or transposition (Q23).
var table56 = [3][3]thesisCell{
	{{0.54, 0.66, 359}, {0.77, 0.72, 60}, {0.97, 0.91, 11}},
	{{0.55, 0.60, 1869}, {0.77, 0.68, 1108}, {0.96, 0.84, 194}},
	{{0.68, 0.64, 1960}, {0.43, 0.81, 939}, {0.98, 0.97, 48}},
}

package apq

import "math"

// The paper's APQ test set (§6): jobs #20001–60000 of the log.
const (
	PaperTestFrom = 20000
	PaperTestTo   = 60000
)

// WaitClasses are the upper bounds, in seconds, of the paper's wait classes
// [0–100], [100–1000], [1000–10⁴], [10⁴–10⁵] and [>10⁵] (§6).
var WaitClasses = [...]float64{100, 1000, 1e4, 1e5, math.Inf(1)}

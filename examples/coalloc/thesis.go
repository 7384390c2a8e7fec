package main

// trial is one row of the thesis's Table 6.2 (live TeraGrid machines,
// Sep 2007 – Mar 2008): the co-allocation shape (N nodes, W, lead D), the
// joint target, and the thesis's mean expected and achieved probabilities.
// COUNT and the number of requests are not reported; Figure 6.1 uses 2.
type trial struct {
	Nodes           int
	Walltime, Lead  int64
	PAll            float64
	Expected, Achvd float64
}

var table62 = []trial{
	{4, 3600, 4 * 3600, 0.90, 0.942, 0.901},
	{4, 3600, 12 * 3600, 0.75, 0.877, 0.920},
	{16, 3600, 12 * 3600, 0.75, 0.866, 0.957},
	{48, 3600, 12 * 3600, 0.75, 0.836, 0.906},
}

package main

// The thesis's numbers (Tsafrir 2006 Ch. 4; spec §6.7): mean wait in
// minutes and mean bounded slowdown on the sane logs at their original load.

type paperCell struct{ Wait, BSLD float64 }

// paper48 is Table 4.8 (and EASY from Table 4.7, for reference).
var paper48 = map[string]map[string]paperCell{
	"SDSC": {"EASY": {363, 99}, "X2": {333, 89}, "X2+": {357, 94}, "X2_perf": {293, 77}, "X2++": {333, 67}, "X2++_perf": {270, 58},
		"SJF": {535, 69}, "SJF+": {308, 34}, "SJF_perf": {270, 19}},
	"CTC": {"EASY": {21, 4.6}, "X2": {20, 4.1}, "X2+": {16, 3.6}, "X2_perf": {18, 3.2}, "X2++": {15, 3.0}, "X2++_perf": {16, 2.5},
		"SJF": {13, 2.8}, "SJF+": {12, 2.4}, "SJF_perf": {12, 1.8}},
	"KTH": {"EASY": {114, 90}, "X2": {102, 80}, "X2+": {98, 66}, "X2_perf": {95, 70}, "X2++": {93, 53}, "X2++_perf": {84, 50},
		"SJF": {79, 45}, "SJF+": {87, 44}, "SJF_perf": {67, 24}},
	"BLUE": {"EASY": {130, 35}, "X2": {115, 30}, "X2+": {105, 33}, "X2_perf": {107, 28}, "X2++": {86, 21}, "X2++_perf": {80, 12},
		"SJF": {81, 25}, "SJF+": {90, 37}, "SJF_perf": {50, 5.4}},
}

// groups48 are Table 4.8's two groups; Δ is relative to the first column.
var groups48 = [][]string{
	{"X2", "X2+", "X2_perf", "X2++", "X2++_perf"},
	{"SJF", "SJF+", "SJF_perf"},
}

// paper49 is Table 4.9 (EASY++ with an "immediate" or an "all" window of
// 2): wait (min), bsld, accuracy (%), py_abs rate (%).
var paper49 = map[string]map[string][4]float64{
	"SDSC": {"immediate": {363, 81, 56, 15}, "all": {327, 70, 60, 12}},
	"CTC":  {"immediate": {17, 3.6, 59, 5.7}, "all": {14, 2.9, 62, 5.1}},
	"KTH":  {"immediate": {98, 67, 58, 14}, "all": {95, 57, 61, 11}},
	"BLUE": {"immediate": {100, 19, 59, 7.8}, "all": {87, 19, 62, 5.2}},
}

// paper412 is Table 4.12: the top configurations and the worst.
var paper412 = []struct {
	Rank       string
	Degr       float64
	Window     int
	Type       string
	Partial    bool
	Metric     string
	Fallback   string // est, rel, rel/est
	Propagate  bool
	Correction string
}{
	{"1", 9.41, 11, "all", true, "avg", "est", true, "estimate"},
	{"2", 10.60, 3, "extended", false, "avg", "rel", true, "estimate"},
	{"3", 10.84, 16, "all", false, "median", "rel", true, "estimate"},
	{"4", 11.16, 21, "all", true, "median", "rel", true, "estimate"},
	{"5", 11.25, 10, "all", false, "median", "est", true, "estimate"},
	{"6", 11.31, 4, "extended", true, "min", "rel", true, "estimate"},
	{"7/8", 11.47, 9, "all", true, "median", "rel/est", false, "estimate"},
	{"9", 11.56, 2, "extended", false, "min", "est", true, "estimate"},
	{"10/11", 11.61, 22, "all", true, "median", "rel/est", false, "estimate"},
	{"8640", 239.88, 26, "all", false, "min", "est", false, "gradual"},
}

// paper413 is Table 4.13 (type all, estimate correction): the average
// degradation's statistics for window 1, window 2 and the full space; NaN
// where the OCR lost the value.
var paper413 = map[string][4]float64{ // min, max, average, s.d.
	"size=1":     {nan, 15.3, 14.2, 1.2},
	"size=2":     {12.0, 14.7, 13.4, 0.7},
	"full space": {9.41, 239.9, 30.4, 10.1},
}

package main

// The thesis's numbers (Tsafrir 2006, Tab 4.1, 4.2, 4.3, 4.7; spec §6.7):
// mean wait in minutes, mean bounded slowdown, accuracy in percent, on the
// sane logs at their original load.

type paperCell struct{ Wait, BSLD, Acc float64 }

// paper[trace][variant]
var paper = map[string]map[string]paperCell{
	"SDSC": {
		"EASY": {363, 99, 32}, "EASY_PRED": {757, 233, 55}, "EASY_PCOR": {360, 93, 32},
		"EASY+": {326, 86, 60}, "EASY_SJBF": {361, 87, 32}, "EASY++": {327, 70, 60},
		"PERFECT++": {278, 58, 100}, "X2": {333, 89, 16}, "SJF": {535, 69, 32},
	},
	"CTC": {
		"EASY": {21, 4.6, 39}, "EASY_PRED": {29, 7.0, 56}, "EASY_PCOR": {21, 4.5, 39},
		"EASY+": {16, 3.3, 62}, "EASY_SJBF": {19, 3.9, 39}, "EASY++": {14, 2.9, 62},
		"PERFECT++": {19, 2.8, 100}, "X2": {20, 4.1, 20}, "SJF": {13, 2.8, 39},
	},
	"KTH": {
		"EASY": {114, 90, 47}, "EASY_PRED": {968, 746, 49}, "EASY_PCOR": {115, 90, 47},
		"EASY+": {96, 65, 60}, "EASY_SJBF": {102, 73, 47}, "EASY++": {95, 57, 61},
		"PERFECT++": {91, 50, 100}, "X2": {102, 80, 24}, "SJF": {79, 45, 47},
	},
	"BLUE": {
		"EASY": {130, 35, 31}, "EASY_PRED": {1324, 439, 55}, "EASY_PCOR": {128, 36, 31},
		"EASY+": {102, 26, 61}, "EASY_SJBF": {102, 21, 31}, "EASY++": {87, 19, 62},
		"PERFECT++": {87, 13, 100}, "X2": {115, 30, 16}, "SJF": {81, 25, 31},
	},
}

// tables lists the variants of each reproduced table.
var tables = []struct {
	Name     string
	Variants []string
}{
	{"Table 4.1 — EASY vs EASY_PRED (no correction)", []string{"EASY", "EASY_PRED"}},
	{"Table 4.2 — EASY vs EASY_PCOR vs EASY+", []string{"EASY", "EASY_PCOR", "EASY+"}},
	{"Table 4.3 — SJBF variants", []string{"EASY", "EASY_SJBF", "EASY++", "PERFECT++"}},
	{"Table 4.7 — EASY++ vs X2 and SJF", []string{"EASY", "X2", "SJF", "EASY++"}},
}

// allVariants is every variant the tables need, each simulated once.
var allVariants = []string{"EASY", "EASY_PRED", "EASY_PCOR", "EASY+", "EASY_SJBF", "EASY++", "PERFECT++", "X2", "SJF"}

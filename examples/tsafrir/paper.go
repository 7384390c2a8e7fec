package main

// The thesis's numbers (Tsafrir 2006; spec §1.4, §6.3, §6.7), on the sane
// logs at their original load.

// paperCell is one log under one variant: mean wait in minutes, mean
// bounded slowdown, accuracy in percent (Tab 4.1, 4.2, 4.3, 4.7).
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

// paperCorrections is Tab 4.2's right-most metric: prediction corrections
// per job, mean and standard deviation (spec §6.3).
var paperCorrections = map[string]map[string][2]float64{
	"SDSC": {"EASY_PCOR": {0.09, 0.33}, "EASY+": {0.56, 0.64}},
	"CTC":  {"EASY_PCOR": {0.12, 0.41}, "EASY+": {0.63, 0.69}},
	"KTH":  {"EASY_PCOR": {0.02, 0.24}, "EASY+": {0.53, 0.57}},
	"BLUE": {"EASY_PCOR": {0.13, 0.48}, "EASY+": {0.60, 0.69}},
}

// predCell is one log under one variant in Tab 4.5 (|start − R|) or Tab 4.6
// (start − R of the jobs started after R): the rate in percent of the jobs,
// then the mean, median and standard deviation in minutes.
type predCell struct{ Rate, Mean, Median, SD float64 }

// paperAbs is Tab 4.5 and paperDelay Tab 4.6; EASY+ and EASY++ use the
// "immediate" predictor there (spec §6.6).
var paperAbs = map[string]map[string]predCell{
	"SDSC": {"EASY": {17, 171, 64, 471}, "EASY+" + immediate: {14, 93, 20, 174}, "EASY++" + immediate: {15, 91, 19, 168}},
	"CTC":  {"EASY": {6.8, 51, 8.3, 92}, "EASY+" + immediate: {5.4, 29, 2.2, 74}, "EASY++" + immediate: {5.7, 27, 1.9, 69}},
	"KTH":  {"EASY": {15, 38, 6.3, 84}, "EASY+" + immediate: {14, 35, 3.2, 90}, "EASY++" + immediate: {14, 35, 3.2, 88}},
	"BLUE": {"EASY": {9.6, 68, 16, 212}, "EASY+" + immediate: {7.5, 45, 3.3, 191}, "EASY++" + immediate: {7.8, 45, 3.4, 184}},
}

var paperDelay = map[string]map[string]predCell{
	"SDSC": {"EASY": {1.5, 513, 0.9, 1442}, "EASY+" + immediate: {3.8, 92, 8.6, 223}, "EASY++" + immediate: {3.8, 86, 8.3, 206}},
	"CTC":  {"EASY": {0.7, 72, 1.9, 119}, "EASY+" + immediate: {1.3, 37, 3.0, 102}, "EASY++" + immediate: {1.3, 34, 2.6, 94}},
	"KTH":  {"EASY": {0.1, 58, 0.7, 108}, "EASY+" + immediate: {1.8, 52, 11, 107}, "EASY++" + immediate: {1.8, 44, 9.9, 87}},
	"BLUE": {"EASY": {0.9, 48, 0.8, 318}, "EASY+" + immediate: {1.8, 35, 2.2, 154}, "EASY++" + immediate: {1.8, 31, 2.1, 136}},
}

// paperCleaned is the number of jobs in the thesis's cleaned logs (Tab 2.1).
var paperCleaned = map[string]int{"SDSC": 59725, "CTC": 77222, "KTH": 28490, "BLUE": 243314}

// paperOverruns is the number of sane jobs whose run time exceeds their
// estimate (spec §1.4 item 3, the thesis's Fig 4.2).
var paperOverruns = map[string]int{"SDSC": 4138, "CTC": 7174, "KTH": 478, "BLUE": 22216}

// tables lists the variants of each reproduced table; corrections marks
// Tab 4.2, which also prints the corrections per job.
var tables = []struct {
	Name        string
	Variants    []string
	corrections bool
}{
	{"Table 4.1 — EASY vs EASY_PRED (no correction)", []string{"EASY", "EASY_PRED"}, false},
	{"Table 4.2 — EASY vs EASY_PCOR vs EASY+", []string{"EASY", "EASY_PCOR", "EASY+"}, true},
	{"Table 4.3 — SJBF variants", []string{"EASY", "EASY_SJBF", "EASY++", "PERFECT++"}, false},
	{"Table 4.7 — EASY++ vs X2 and SJF", []string{"EASY", "X2", "SJF", "EASY++"}, false},
}

// allVariants is every variant Tables 4.1–4.3 and 4.7 need, each simulated
// once.
var allVariants = []string{"EASY", "EASY_PRED", "EASY_PCOR", "EASY+", "EASY_SJBF", "EASY++", "PERFECT++", "X2", "SJF"}

// predVariants are the columns of Tab 4.5 and 4.6.
var predVariants = []string{"EASY", "EASY+" + immediate, "EASY++" + immediate}

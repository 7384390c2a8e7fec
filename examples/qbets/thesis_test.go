package main

// thesisRow is one row of Nurmi's Table 4.1 or 4.2 for a trace we also
// have: correctness of BM, LogN, LogU and Weibull, and the accuracy ratios
// RMS_BM / RMS_X of LogN, LogU and Weibull, as printed (Q23: ±0.02).
type thesisRow struct {
	label   string // the thesis's trace/queue, with the SWF queue number
	ours    string // our row's trace/queue name
	correct [4]float64
	acc     [3]float64
}

// The thesis's ctc is the Cornell SP2 log (CTC-SP2); its sdscblue queues
// are SDSC-BLUE's, whose header names them 1 express, 2 high, 3 normal and
// 4 low.
var (
	thesis41 = []thesisRow{
		{"ctc/ALL", "CTC-SP2-1996-3.1-cln/ALL", [4]float64{0.94, 0.97, 1.00, 0.92}, [3]float64{0.48, 0.04, 0.49}},
		{"sdscblue/high (2)", "SDSC-BLUE-2000-4.2-cln/2 high", [4]float64{0.90, 0.90, 1.00, 0.79}, [3]float64{0.53, 0.15, 1.51}},
		{"sdscblue/low (4)", "SDSC-BLUE-2000-4.2-cln/4 low", [4]float64{0.90, 0.99, 1.00, 0.89}, [3]float64{0.36, 0.11, 1.09}},
		{"sdscblue/normal (3)", "SDSC-BLUE-2000-4.2-cln/3 normal", [4]float64{0.89, 0.94, 1.00, 0.85}, [3]float64{0.44, 0.09, 1.13}},
		{"sdscblue/express (1)", "SDSC-BLUE-2000-4.2-cln/1 express", [4]float64{0.92, 0.90, 0.99, 0.84}, [3]float64{1.12, 0.17, 2.20}},
	}
	thesis42 = []thesisRow{
		{"ctc/ALL", "CTC-SP2-1996-3.1-cln/ALL", [4]float64{0.96, 0.93, 0.99, 0.93}, [3]float64{0.48, 0.18, 1.66}},
		{"sdscblue/high (2)", "SDSC-BLUE-2000-4.2-cln/2 high", [4]float64{0.96, 0.96, 0.97, 0.94}, [3]float64{0.24, 0.87, 0.97}},
		{"sdscblue/low (4)", "SDSC-BLUE-2000-4.2-cln/4 low", [4]float64{0.96, 0.96, 0.99, 0.95}, [3]float64{0.26, 0.38, 1.08}},
		{"sdscblue/normal (3)", "SDSC-BLUE-2000-4.2-cln/3 normal", [4]float64{0.97, 0.95, 0.97, 0.95}, [3]float64{0.24, 0.55, 1.03}},
		{"sdscblue/express (1)", "SDSC-BLUE-2000-4.2-cln/1 express", [4]float64{0.97, 0.91, 0.98, 0.94}, [3]float64{0.17, 0.50, 0.55}},
	}
)

// thesisWinners is Table 4.2's tally over the thesis's 25 traces under the
// winner rule (spec §5.2): BM, LogN, LogU, Weibull, none (dante).
var thesisWinners = map[string]int{"BM": 15, "LogN": 2, "LogU": 2, "Weib": 5, "none": 1}

package main

import (
	"strings"

	"github.com/batchq/batchq/examples/internal/figures"
)

// plotValidation draws the EASY validation as the thesis's Fig 5.13 does:
// mean wait and bounded slowdown per log, one bar per estimate model (real
// estimates first, with the thesis's real-estimate run marked; the thesis
// prints no values for the other bars).
func plotValidation(dir string, all []*logValidation) ([]string, error) {
	var rs []figures.SchedResult
	for _, lv := range all {
		name := strings.ToUpper(lv.log)
		th := thesisEASY[lv.log]
		rs = append(rs, figures.SchedResult{Log: name, Variant: "real",
			MeanWait: lv.real.wait * 60, MeanBSLD: lv.real.bsld, PaperWait: th[0] * 60, PaperBSLD: th[1]})
		for _, o := range lv.rows {
			rs = append(rs, figures.SchedResult{Log: name, Variant: o.name, MeanWait: o.wait * 60, MeanBSLD: o.bsld})
		}
	}
	return figures.Schedulers(dir, "estimates-easy", "EASY with real, model and f-model estimates (Tsafrir Fig 5.13; ring: thesis, real estimates)", rs)
}

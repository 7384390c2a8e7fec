// Package swfname names the value of an SWF categorical field (user,
// group, executable) as the IBL predictor's features read it, one rule
// for the replay (qbets/replay) and the Karnak service's trace feed
// (qbets/karnak), so that a log replayed and the same log fed to the
// service give IBL the same jobs.
package swfname

import "strconv"

// Known is the name of an SWF categorical field's value v (prefix and
// number), "" when SWF writes it as missing (−1, or any negative): IBL
// reads "" as no such feature. As "u-1" every user-less job of a trace
// was one user.
func Known(prefix string, v int64) string {
	if v < 0 {
		return ""
	}
	return prefix + strconv.FormatInt(v, 10)
}

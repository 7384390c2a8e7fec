package sanitize

import "strings"

// PWA cleaning filters known exactly (spec §1.4, thesis Ch. 6): user plus
// raw job-number range; the PWA states them as lo < job < hi, written here
// inclusively. The CTC, BLUE, NASA and LANL-CM5 filters are not given
// exactly in the thesis, so they are not shipped; use the PWA cln files.
const pwaSDSCSP2 = `user=21 job=13717..16207    # 944 jobs
user=374 job=14969..28552   # 11,740 jobs: the flurry at the start of the log
user=197 job=31767..33202   # 635 jobs
user=328 job=66553..68106   # 452 jobs: contains the 375-job day-581 flurry
`

// PWASDSCSP2 returns the four PWA filters that turn raw SDSC-SP2 (73,496
// jobs) into its cln version (59,725 jobs).
func PWASDSCSP2() (Filters, error) {
	return ParseFilters(strings.NewReader(pwaSDSCSP2))
}

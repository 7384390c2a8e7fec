package main

// qosTreePaths are the two recorded runs of the second held-out site: the
// QOS weight dominant, PriorityMaxAge binding, bf_resolution of a minute,
// bf_continue, a deeper account tree and jobs killed at their limit
// (qosTreeSite; BATCHQ_SLURMCHECK_SITE=qos-tree).
var qosTreePaths = [2]string{"testdata/qostree.json", "testdata/qostree2.json"}

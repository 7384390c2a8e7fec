package sched

// SummarizeRecords recomputes a summary from records alone, sorting the
// termination order, to check the order the simulation keeps.
var SummarizeRecords = summarizeRecords

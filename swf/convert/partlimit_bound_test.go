package convert

import "testing"

// A partition limit past the longest duration read (230 years: 2^30
// minutes, as convert -partition-limit took) is refused, as a log's own
// limit that long is unreadable: it was every Partition_Limit job's
// requested time (64,424,509,440 s). The bound itself is taken.
func TestValidatePartitionLimitBound(t *testing.T) {
	if err := (&Options{PartitionLimits: map[string]int64{"p": 64424509440}}).Validate(); err == nil {
		t.Error("2^30 minutes accepted")
	}
	if err := (&Options{PartitionLimits: map[string]int64{"p": maxTime}}).Validate(); err != nil {
		t.Error(err)
	}
}

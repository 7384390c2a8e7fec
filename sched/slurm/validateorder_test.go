package slurm

import (
	"strings"
	"testing"
)

// TestValidateNamesFirstBadQOS: with several QOS priorities out of range,
// Validate names the same one on every call, the first by name: it
// named whichever the map's order gave first. (QOS is the only map
// Validate ranges over; the partitions and associations are slices.)
func TestValidateNamesFirstBadQOS(t *testing.T) {
	qos := map[string]int64{"normal": 10}
	for _, k := range []string{"m", "c", "x", "b", "q", "z", "e", "k"} {
		qos[k] = -1
	}
	for range 50 {
		err := Config{QOS: qos}.Validate()
		if err == nil || !strings.Contains(err.Error(), `QOS "b"`) {
			t.Fatalf("every QOS but one bad: %v; want it to name \"b\"", err)
		}
	}
}

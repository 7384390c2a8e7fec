package main

import (
	"encoding/json"
	"os"
	"testing"
)

func TestZZReplay(t *testing.T) {
	b, _ := os.ReadFile(forecastRecordPath)
	var recs []forecastRecord
	json.Unmarshal(b, &recs)
	t.Logf("live:\n%s", forecastTable(recs))
	out := replayForecast(t, recs)
	t.Logf("replay:\n%s", forecastTable(out))
	b, _ = json.Marshal(out)
	os.WriteFile("/tmp/replay.json", b, 0o644)
}

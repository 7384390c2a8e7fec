package karnak

import (
	"net/http/httptest"
	"testing"
)

// TestCalibrationForecastHoldsNoLock: the calibration's simulation of the
// jobs submitted at an instant, which an event at a later instant makes
// due, runs while requests are answered: at that point the system's read
// lock and the forecaster's lock are free, and a request on another
// goroutine (a prediction with its forecast, the waiting list) is
// answered before the simulation goes on. It ran under the write lock,
// 7–10 ms at the bound of 2,000 live jobs, which held every reader. The
// forecast recorded is the one a request gets at that state.
func TestCalibrationForecastHoldsNoLock(t *testing.T) {
	svc, now := forecastSystem(t, Config{})
	*now = fcT0 + 20 // the last submission's instant: requests see the state the calibration simulates
	sys, err := svc.lookup("s1")
	if err != nil {
		t.Fatal(err)
	}
	h := svc.Handler()
	var during *ForecastPart
	runs := 0
	sys.fc.recHookForTests = func() {
		runs++
		if !sys.mu.TryRLock() {
			t.Error("the calibration's simulation runs under the system's write lock: every request waits for it")
			return
		}
		sys.mu.RUnlock()
		if !sys.fc.mu.TryLock() {
			t.Error("the calibration's simulation holds the forecaster's lock: every forecast request waits for it")
			return
		}
		sys.fc.mu.Unlock()
		answered := make(chan struct{})
		go func() {
			defer close(answered)
			p, err := svc.PredictJob("s1", 3, 95, 90, 0)
			if err != nil || p.Forecast == nil {
				t.Errorf("a request during the simulation: %v, %+v (%s)", err, p.Forecast, p.ForecastReason)
				return
			}
			during = p.Forecast
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest("GET", "/karnak/system/s1/job/waiting.json", nil))
			if rec.Code != 200 {
				t.Errorf("the waiting list during the simulation: %d %s", rec.Code, rec.Body)
			}
		}()
		<-answered // the simulation goes on once a request was answered
	}
	// Job 3 (submitted at +20) is forecast for the calibration when an
	// event of a later instant comes.
	if err := svc.Ingest([]Event{{Kind: "submit", System: "s1", Queue: "q", Job: 4, Cores: 1, WallTime: 60, Time: fcT0 + 30, User: "d"}}); err != nil {
		t.Fatal(err)
	}
	if runs != 1 {
		t.Fatalf("%d calibration simulations, want 1", runs)
	}
	sys.mu.RLock()
	at, wait := sys.jobs[3].fcAt, sys.jobs[3].fcWait
	sys.mu.RUnlock()
	if during == nil || at != fcT0+20 || wait != during.Wait || at+wait != during.Start {
		t.Errorf("job 3's recorded forecast: at +%d, wait %d; a request at that state: %+v", at-fcT0, wait, during)
	}
}

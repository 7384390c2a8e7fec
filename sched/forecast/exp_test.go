package forecast

import (
	"context"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/qbets/replay"
	"github.com/batchq/batchq/swf"
)

func within2(s *replay.Score) (float64, float64) {
	n, ok, sum := 0, 0, 0.0
	for _, a := range s.Answers {
		p, w := max(a.Point, floor), max(float64(a.Wait), floor)
		r := math.Abs(math.Log10(p / w))
		sum += r
		if r <= math.Log10(2)+1e-12 {
			ok++
		}
		n++
	}
	return float64(ok) / float64(n), sum / float64(n)
}

// TestExperiment is the tuning harness behind the package doc's figures:
// FORECAST_EXP=KTH-SP2-1996-2.1-cln.swf.gz[,…] replays each log through
// Online and logs its share within ×2 and mean |log10| error;
// FORECAST_TO=n replays the first n jobs only; FORECAST_FORGET, FORECAST_TRAIN, FORECAST_RATIO (UserRatio run times) and
// FORECAST_NOCORRECTION (the simulation alone) vary the configuration.
func TestExperiment(t *testing.T) {
	names := os.Getenv("FORECAST_EXP")
	if names == "" {
		t.Skip("FORECAST_EXP=trace,… runs the experiment")
	}
	for _, name := range strings.Split(names, ",") {
		h, jobs, err := swf.ReadFile(tracetest.Path(t, name))
		if err != nil {
			t.Fatal(err)
		}
		q, _ := replay.Queues(jobs)
		all, _ := replay.All(q)
		P, _ := h.MachineSize()
		cfg := Config{}
		if v := os.Getenv("FORECAST_FORGET"); v != "" {
			cfg.Forget, _ = strconv.ParseFloat(v, 64)
		}
		if v := os.Getenv("FORECAST_TRAIN"); v != "" {
			cfg.Train, _ = strconv.Atoi(v)
		}
		if os.Getenv("FORECAST_RATIO") != "" {
			cfg.Runtime = &UserRatio{}
		}
		if os.Getenv("FORECAST_NOCORRECTION") != "" {
			cfg.NoCorrection = true
		}
		on, _ := NewOnline(cfg, P)
		t0 := time.Now()
		opt := replay.Options{}
		if v := os.Getenv("FORECAST_TO"); v != "" { // a prefix: score jobs [10% of it, it)
			opt.To, _ = strconv.Atoi(v)
			opt.From = opt.To / 10
		}
		sc, err := replay.Run(context.Background(), all, opt, on)
		if err != nil {
			t.Fatal(err)
		}
		for i, lab := range []string{"forecast"} {
			a, b := within2(&sc[i])
			t.Logf("%s %-10s %6d within2 %.4f log10 %.4f", tracetest.ShortName(name), lab, len(sc[i].Answers), a, b)
		}
		t.Logf("%v", time.Since(t0))
	}
}

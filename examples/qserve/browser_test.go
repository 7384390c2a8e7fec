package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/qbets/karnak"
	"github.com/batchq/batchq/swf"
)

// chromium finds the browser: $QSERVE_CHROMIUM, else Debian's
// /usr/bin/chromium, else chromium on the PATH. Without one the test
// skips, and fails when CI=true (.ci/run installs Debian's chromium).
func chromium(t *testing.T) string {
	t.Helper()
	for _, p := range []string{os.Getenv("QSERVE_CHROMIUM"), "/usr/bin/chromium"} {
		if p == "" {
			continue
		}
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	if p, err := exec.LookPath("chromium"); err == nil {
		return p
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("Chromium is required in CI (apt-get install -y chromium); none at /usr/bin/chromium or on the PATH")
	}
	t.Skip("no Chromium at /usr/bin/chromium or on the PATH (apt-get install -y chromium); skipping the browser test")
	return ""
}

// browserTrace is the short replayed trace of the browser test: the
// events of SDSC-SP2's first 4,000 jobs as system "sdsc" (about a month,
// five queues), of which the first n reach its 3,000th submission, and
// the service's clock, a minute after that; the test replays the first n
// (ingestAsLive), so that jobs are still waiting.
func browserTrace(t *testing.T) (evs []karnak.Event, n int, now int64) {
	t.Helper()
	h, jobs, err := swf.ReadFile(tracetest.Path(t, tracetest.SDSCSP2))
	if err != nil {
		t.Fatal(err)
	}
	evs, _ = karnak.TraceEvents(h, jobs[:4000], "sdsc")
	subs := 0
	for i, e := range evs {
		if e.Kind == "submit" {
			if subs++; subs == 3000 {
				return evs, i + 1, e.Time + 60
			}
		}
	}
	t.Fatal("SDSC-SP2: fewer than 3,000 submissions in its first 4,000 jobs")
	return nil, 0, 0
}

// ingestAsLive feeds evs a minute of trace time at a time, with the
// service's clock at the minute's last event, as they would arrive from a
// live system (so the charts' samples are taken at their submissions).
func ingestAsLive(t *testing.T, svc *karnak.Service, clock *atomic.Int64, evs []karnak.Event) {
	t.Helper()
	for i := 0; i < len(evs); {
		j := i + 1
		for j < len(evs) && evs[j].Time/60 == evs[i].Time/60 {
			j++
		}
		clock.Store(evs[j-1].Time)
		if err := svc.Ingest(evs[i:j]); err != nil {
			t.Fatal(err)
		}
		i = j
	}
}

// TestBrowser opens the service in headless Chromium: the queue page with
// its charts (also at a phone's width), and the form for a hypothetical
// job, filled in and submitted from the keyboard; the answer on the
// rendered page must be the API's. No page may break the
// Content-Security-Policy. Screenshots of both pages are saved in
// $QSERVE_SCREENSHOTS, else in the test's artifact directory (go test
// -artifacts keeps it).
func TestBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("the browser test starts Chromium; not in -short")
	}
	exe := chromium(t)
	evs, n, now := browserTrace(t)
	var clock atomic.Int64
	svc := newService(t, nil, karnak.Config{Now: clock.Load})
	ingestAsLive(t, svc, &clock, evs[:n])
	clock.Store(now)
	// Slurm's own estimates for q3, as a Slurm feed (slurmfeed's probes of
	// sbatch --test-only) would send them: the answer page shows the
	// smallest probed job at least as large as the one asked (32 cores,
	// 4 h for 16 cores, 2 h); q2 has none, and shows none.
	slurmAsked := now - 30
	if err := svc.Ingest([]karnak.Event{
		{Kind: "estimate", System: "sdsc", Queue: "q3", Cores: 8, WallTime: 4 * 3600, Time: slurmAsked, Start: slurmAsked + 60},
		{Kind: "estimate", System: "sdsc", Queue: "q3", Cores: 32, WallTime: 3600, Time: slurmAsked, Start: slurmAsked + 600},
		{Kind: "estimate", System: "sdsc", Queue: "q3", Cores: 32, WallTime: 4 * 3600, Time: slurmAsked, Start: slurmAsked + 5400},
		{Kind: "estimate", System: "sdsc", Queue: "q3", Cores: 64, WallTime: 4 * 3600, Time: slurmAsked, Start: slurmAsked + 9000},
	}); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := newServer(svc.Handler(), timeouts{header: 5 * time.Second, read: 10 * time.Second, write: 30 * time.Second, idle: 30 * time.Second})
	go srv.Serve(ln) //nolint:errcheck // ErrServerClosed at the end
	t.Cleanup(func() { srv.Close() })
	base := "http://" + ln.Addr().String() + "/karnak"

	dir := os.Getenv("QSERVE_SCREENSHOTS")
	if dir == "" {
		dir = t.ArtifactDir()
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(exe), chromedp.Flag("headless", true), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true), chromedp.NoFirstRun, chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true), chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(desktopWidth, 900))
	defer cancelAlloc()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel() // stops the browser it started
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("starting %s: %v", exe, err)
	}
	// Everything the page or the browser logs: a CSP violation (an inline
	// style or script refused) would be an error entry here.
	var logMu sync.Mutex
	var logged []string
	messages := chromedp.Console(ctx)
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			logMu.Lock()
			logged = append(logged, fmt.Sprintf("%s %s: %s (%s)", m.Type, m.Source, m.Text, m.URL))
			logMu.Unlock()
		}
	}()
	tctx, tcancel := context.WithTimeout(ctx, 90*time.Second)
	defer tcancel()
	run := func(what string, steps ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(tctx, steps...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	text := func(sel string) string {
		t.Helper()
		s, err := chromedp.Run(tctx, chromedp.Text(chromedp.CSS(sel)))
		if err != nil {
			t.Fatalf("text of %s: %v", sel, err)
		}
		return s
	}
	shot := func(name string) {
		t.Helper()
		png, err := chromedp.Run(tctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatalf("screenshot %s: %v", name, err)
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, png, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("screenshot: %s (%d bytes)", p, len(png))
	}

	// The queue page: its charts drawn, styled by the served stylesheet.
	run("queue page", chromedp.Navigate(base+"/system/sdsc/queue/q3/summary.html"), chromedp.WaitVisible(chromedp.CSS("figure.chart svg")))
	if title, _ := chromedp.Run(tctx, chromedp.Title()); title != "Queue q3@sdsc · Karnak" {
		t.Errorf("title %q", title)
	}
	if h := text("h1"); h != "Queue q3@sdsc" {
		t.Errorf("h1 %q", h)
	}
	style, err := chromedp.Run(tctx, chromedp.ComputedStyle(chromedp.CSS("svg path.bound")))
	if err != nil {
		t.Fatal(err)
	}
	stroke := ""
	for _, p := range style {
		if p.Name == "stroke" {
			stroke = p.Value
		}
	}
	if stroke != "rgb(207, 34, 46)" {
		t.Errorf("QBETS bound stroke %q: the stylesheet did not apply", stroke)
	}
	shot("qserve-queue.png")
	// At a phone's width the page does not scroll sideways (wide tables
	// scroll inside their box).
	run("phone", chromedp.EmulateViewport(390, 844), chromedp.Navigate(base+"/system/sdsc/queue/q3/summary.html"), chromedp.WaitVisible(chromedp.CSS("figure.chart svg")))
	if w, err := chromedp.Run(tctx, chromedp.Evaluate[int]("document.documentElement.scrollWidth")); err != nil || w > 390 {
		t.Errorf("at 390 px the page is %d px wide (%v)", w, err)
	}
	shot("qserve-queue-phone.png")
	run("desktop", chromedp.EmulateViewport(desktopWidth, 900))

	// Every other page, at a desktop's width: nothing scrolls sideways,
	// neither the page nor a table inside its box (the queue summary's
	// nine columns overflowed at 1,200 px until their headings could
	// wrap). Each page's screenshot is kept with the others.
	noSideways := func(what string) {
		t.Helper()
		overflow, err := chromedp.Run(tctx, chromedp.Evaluate[[]string](`[document.documentElement, ...document.querySelectorAll(".scroll, figure.chart")]
			.filter(e => e.scrollWidth > e.clientWidth).map(e => (e.className || e.tagName) + ": " + e.scrollWidth + " > " + e.clientWidth)`))
		if err != nil || len(overflow) > 0 {
			t.Errorf("%s at %d px scrolls sideways: %v (%v)", what, desktopWidth, overflow, err)
		}
	}
	var waitingJob string
	for _, pg := range []struct{ path, shot string }{
		{"/system/status.html", "qserve-systems.png"},
		{"/system/sdsc/status.html", "qserve-system.png"},
		{"/system/sdsc/queue/q3/summary.html", ""}, // shot above
		{"/system/sdsc/queue/all_jobs/summary.html", "qserve-all-jobs.png"},
		{"/system/sdsc/job/waiting.html", "qserve-waiting.png"},
		{"job", "qserve-prediction.png"},
		{"/system/sdsc/event/last.html", "qserve-last.png"},
		{"/stats.html", "qserve-stats.png"},
	} {
		path := pg.path
		if path == "job" {
			if waitingJob == "" {
				t.Fatal("the waiting jobs' page links no job's prediction")
			}
			path = waitingJob
		}
		run(path, chromedp.Navigate(base+path), chromedp.WaitVisible(chromedp.CSS("main")))
		noSideways(path)
		if strings.HasSuffix(path, "waiting.html") {
			waitingJob, _ = chromedp.Run(tctx, chromedp.Evaluate[string](`(document.querySelector("a[href*='/prediction/']") || {}).pathname || ""`))
			waitingJob = strings.TrimPrefix(waitingJob, "/karnak")
		}
		if pg.shot != "" {
			shot(pg.shot)
		}
	}

	// The form, from the keyboard: a bad value first (its error beside
	// the field), then a job for two queues.
	run("form", chromedp.Navigate(base+"/waittime/predict.html"), chromedp.WaitVisible(chromedp.ID("cores")),
		chromedp.Clear(chromedp.ID("cores")), chromedp.SendKeys(chromedp.ID("cores"), "sixteen"),
		chromedp.Focus(chromedp.CSS(`input[value="q3@sdsc"]`)), chromedp.KeyEvent(" "),
		chromedp.SendKeys(chromedp.ID("within"), kb.Enter), chromedp.WaitVisible(chromedp.ID("cores-err")))
	if e := text("#cores-err"); !strings.Contains(e, `"sixteen": want a whole number of cores`) {
		t.Errorf("the error beside cores: %q", e)
	}
	run("form again", chromedp.Clear(chromedp.ID("cores")), chromedp.SendKeys(chromedp.ID("cores"), "16"),
		chromedp.Clear(chromedp.ID("wallTime")), chromedp.SendKeys(chromedp.ID("wallTime"), "02:00:00"),
		chromedp.Clear(chromedp.ID("within")), chromedp.SendKeys(chromedp.ID("within"), "01:00:00"),
		chromedp.Focus(chromedp.CSS(`input[value="q2@sdsc"]`)), chromedp.KeyEvent(" "),
		chromedp.Focus(chromedp.ID("within")), chromedp.KeyEvent(kb.Enter), chromedp.WaitVisible(chromedp.ID("answers")))
	loc, _ := chromedp.Run(tctx, chromedp.Location())
	if !strings.Contains(loc, "cores=16") || !strings.Contains(loc, "loc=q2%40sdsc") || !strings.Contains(loc, "loc=q3%40sdsc") {
		t.Errorf("the form asked %s", loc)
	}
	noSideways("the form's answer")
	shot("qserve-form.png")
	answers := text("#answers")
	// The API's answer for the same job, at the same (fixed) clock.
	ps, err := svc.PredictHypothetical(&karnak.PredictRequest{Cores: 16, WallTime: 7200, Quantile: 95, Confidence: 90, Within: 3600,
		Locations: []karnak.Location{{System: "sdsc", Queue: "q2"}, {System: "sdsc", Queue: "q3"}}})
	if err != nil {
		t.Fatal(err)
	}
	withBound := 0
	for _, p := range ps {
		if p.Error != "" || p.IBL == nil || p.ProbWithin == nil {
			t.Fatalf("%s@%s: the API has no full answer: %+v", p.Queue, p.System, p)
		}
		want := []string{p.Queue + "@" + p.System, fmt.Sprintf("waits about %s", hms(int64(p.IBL.Wait+0.5)))}
		if p.IBL.LowClamped { // the interval as shown, never below no wait
			want = append(want, fmt.Sprintf("(±%s clamped at 0 wait)", hms(int64(p.IBL.HalfWidth+0.5))))
		}
		if p.Forecast == nil {
			t.Errorf("%s@%s: no forecast: %s", p.Queue, p.System, p.ForecastReason)
		} else {
			want = append(want, "Forecast", fmt.Sprintf("waits %s, so starts at %s UTC", hms(p.Forecast.Wait), time.Unix(p.Forecast.Start, 0).UTC().Format("2006-01-02 15:04:05")))
		}
		if p.QBETS != nil {
			withBound++
			want = append(want, "waits at most "+hms(p.QBETS.Wait), fmt.Sprintf("%.0f%%", 100**p.ProbWithin))
		}
		for _, w := range want {
			if !strings.Contains(answers, w) {
				t.Errorf("%q not on the rendered answer:\n%s", w, answers)
			}
		}
	}
	if withBound == 0 {
		t.Errorf("no location has a QBETS bound; the trace should give one")
	}
	if sl := ps[1].Slurm; ps[0].Slurm != nil || sl == nil || sl.Cores != 32 || sl.WallTime != 4*3600 || sl.Wait != 5400 {
		t.Errorf("Slurm's estimates: q2 %+v (want none), q3 %+v (want 32 cores, 4 h, 5,400 s)", ps[0].Slurm, ps[1].Slurm)
	}
	asked := time.Unix(slurmAsked, 0).UTC().Format("2006-01-02 15:04:05")
	for _, w := range []string{"Slurm's own estimate", "waits 01:30:00, so starts at " + time.Unix(slurmAsked+5400, 0).UTC().Format("2006-01-02 15:04:05") + " UTC",
		"(sbatch --test-only for 32 cores, 04:00:00, asked at " + asked + " UTC"} {
		if !strings.Contains(answers, w) {
			t.Errorf("%q not on the rendered answer:\n%s", w, answers)
		}
	}
	if n := strings.Count(answers, "Slurm's own estimate"); n != 1 {
		t.Errorf("Slurm's estimate shown %d times, want once (q3 only)", n)
	}
	if !regexp.MustCompile(`Probability of starting within 01:00:00\s+\d+%`).MatchString(answers) || !strings.Contains(answers, "90% interval") {
		t.Errorf("the answer lacks the probability or the interval:\n%s", answers)
	}
	b, _ := json.Marshal(ps)
	t.Logf("answered on the page as the API answers: %s", b)
	// The same answer as XML, for the README's example of it.
	if resp, err := http.Post(base+"/waittime/prediction/?format=xml", "application/json",
		strings.NewReader(`{"cores": 16, "wallTime": "02:00:00", "within": "01:00:00", "locations": ["q3@sdsc"]}`)); err != nil {
		t.Error(err)
	} else {
		x, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		t.Logf("the answer for q3@sdsc as XML (%d):\n%s", resp.StatusCode, x)
	}

	time.Sleep(200 * time.Millisecond) // let the last log entries arrive
	logMu.Lock()
	defer logMu.Unlock()
	for _, l := range logged {
		if strings.Contains(l, "cores=sixteen") && strings.Contains(l, "status of 400") {
			continue // the invalid form, answered 400 on purpose
		}
		if strings.Contains(l, "Content Security Policy") || strings.HasPrefix(l, "error") || strings.HasPrefix(l, "exception") {
			t.Errorf("browser log: %s", l)
		}
	}
}

// desktopWidth is the browser's width but for the phone's page: a
// laptop's 1,200 px.
const desktopWidth = 1200

func hms(s int64) string { return fmt.Sprintf("%02d:%02d:%02d", s/3600, s/60%60, s%60) }

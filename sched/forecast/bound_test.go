package forecast

import (
	"context"
	"testing"

	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/qbets/replay"
	"github.com/batchq/batchq/swf"
)

// TestOnlineFreshNamesBounded: a stream that names a fresh user and a
// fresh queue per job (a hostile client's, or a log's that numbers them
// so) keeps Online's per-user and per-queue histories within their
// bounds, where every one of them had an entry per job (12,000 users
// and queues, 12,000 hours of queues; checked with the bounds lifted and
// a user's counts kept at 0), and the counts of a user's waiting jobs
// and running processors hold the users with jobs in Online only.
func TestOnlineFreshNamesBounded(t *testing.T) {
	const n = 12000
	jobs := make([]swf.Job, n)
	for i := range jobs {
		id := int64(i + 1)
		// One to 8 processors on a machine of 64, a job every 5 minutes
		// that runs for 10 to 40: a few wait, a few run at a time.
		jobs[i] = job(id, id*300, int64(i%3)*60, 600*int64(1+i%4), int64(1+i%8), 3600, id)
		jobs[i].Queue = id
	}
	o, err := NewOnline(Config{Train: 50}, 64)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := replay.Run(context.Background(), jobs, replay.Options{}, o); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		what     string
		got, max int
	}{
		{"users' last waits", o.userW.len(), maxUsers},
		{"queues' waits", o.queueW.len(), maxQueues},
		{"queues and classes' last waits", o.lastQC.len(), maxQueueClasses},
		{"queues, classes and hours' waits", o.hourW.len(), maxHourKeys},
		{"users' ladders", o.user.len(), maxUserModels},
		{"users' waiting jobs", len(o.userQ), len(o.waiting)},
		{"users' running processors", len(o.userR), len(o.running)},
	} {
		if c.got > c.max {
			t.Errorf("%s: %d entries after %d jobs of fresh users and queues, want at most %d", c.what, c.got, n, c.max)
		}
	}
	if o.userW.len() != maxUsers || o.queueW.len() != maxQueues {
		t.Errorf("%d users' last waits, %d queues' waits: want the %d and %d most recent kept", o.userW.len(), o.queueW.len(), maxUsers, maxQueues)
	}
	// The most recent are those kept: the last job's user and queue
	// (whose start the replay, ending at the last arrival, does not see:
	// the one before).
	if o.userW.get(n-1) == nil || o.queueW.get([2]int64{n - 1, -1}) == nil || o.userW.get(1) != nil || o.queueW.get([2]int64{1, -1}) != nil {
		t.Errorf("the first user and queue kept, or the last lost")
	}
}

// TestBoundsAboveArchiveLogs pins what the bounds' comment claims: every
// archive log names fewer users, queues, queues and classes, and queues,
// classes and hours than maxUsers, maxQueues, maxQueueClasses and
// maxHourKeys (counted over all its jobs, a bound of the keys Online
// holds), so that no key is ever evicted on them and no figure changes.
func TestBoundsAboveArchiveLogs(t *testing.T) {
	if testing.Short() {
		t.Skip("reads every archive log")
	}
	for _, name := range []string{tracetest.CTC, tracetest.KTH, tracetest.SDSCSP2, tracetest.SDSCBlue, tracetest.LANLCM5,
		tracetest.CEACurie, tracetest.LLNL, tracetest.OSC, tracetest.SDSCPar, tracetest.NASA, tracetest.Lublin} {
		_, jobs, err := swf.ReadFile(tracetest.Path(t, name))
		if err != nil {
			t.Fatal(err)
		}
		// (Online's keys: a queue is a queue and partition, partOf.)
		users, queues := map[int64]bool{}, map[[2]int64]bool{}
		qc, hours := map[[3]int64]bool{}, map[hourKey]bool{}
		for i := range jobs {
			j := &jobs[i]
			users[j.User], queues[[2]int64{j.Queue, partOf(j)}] = true, true
			qc[[3]int64{j.Queue, partOf(j), int64(sizeClass(j.Size()))}] = true
			hours[keyAt(j, j.Submit, partOf(j))] = true
		}
		t.Logf("%s: %d users, %d queues, %d queues and classes, %d queues, classes and hours",
			tracetest.ShortName(name), len(users), len(queues), len(qc), len(hours))
		if len(users) > maxUsers || len(queues) > maxQueues || len(qc) > maxQueueClasses || len(hours) > maxHourKeys {
			t.Errorf("%s: %d users, %d queues, %d queues and classes, %d queues, classes and hours: above a bound (%d, %d, %d, %d)",
				tracetest.ShortName(name), len(users), len(queues), len(qc), len(hours), maxUsers, maxQueues, maxQueueClasses, maxHourKeys)
		}
	}
}

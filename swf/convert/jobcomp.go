package convert

import (
	"cmp"
	"errors"
	"io"
	"strings"
)

// jobcompKeys are the keys of a jobcomp/filetxt line (Slurm 14.11 to
// 24.x). A token "Key=value" whose Key is not among them continues the
// previous value, since job names and directories may contain blanks.
var jobcompKeys = map[string]bool{
	"JobId": true, "UserId": true, "GroupId": true, "Name": true, "JobState": true,
	"Partition": true, "TimeLimit": true, "StartTime": true, "EndTime": true,
	"NodeList": true, "NodeCnt": true, "ProcCnt": true, "WorkDir": true,
	"ReservationName": true, "Tres": true, "Account": true, "QOS": true,
	"WcKey": true, "Cluster": true, "SubmitTime": true, "EligibleTime": true,
	"ArrayJobId": true, "ArrayTaskId": true, "HetJobId": true, "HetJobOffset": true,
	"DerivedExitCode": true, "ExitCode": true, "BlockID": true, "Connection": true,
	"Reboot": true, "Rotate": true, "Geometry": true, "Start": true, "MaxProcs": true,
	"NodeListRequired": true, "JobName": true, "Comment": true, "AdminComment": true,
	"SystemComment": true, "StdOut": true, "StdErr": true, "StdIn": true,
}

// Jobcomp converts Slurm's jobcomp/filetxt file (JobCompType=jobcomp/filetxt,
// plain or gzip): one line per finished job, written at its end, such as
//
//	JobId=12 UserId=alice(1000) GroupId=alice(1000) Name=x JobState=COMPLETED Partition=debug
//	TimeLimit=1 StartTime=2024-01-01T00:00:00 EndTime=... NodeList=n1 NodeCnt=1 ProcCnt=2 ...
//	Tres=cpu=2,mem=4000M,node=1 ... SubmitTime=... EligibleTime=... DerivedExitCode=0:0 ExitCode=0:0
//
// (on one line). The file records what was allocated, not what was
// requested: requested processors are -1, and the requested memory is the
// allocated one (Slurm allocates the memory asked for). A job that ran
// (NodeList set) without a readable ProcCnt takes its CPUs from Tres's
// cpu=, else they are unknown, its wait and run time kept. A job requeued
// has a line per attempt; the last one is the job. The status and
// requeues are read as Sacct's doc says, the fields as Result's says. The
// demand (Result's doc) comes from Tres (the request) and NodeCnt. A
// line with a key twice (a job name "sweep JobState=COMPLETED") is
// malformed: which is the field cannot be told. A newline in a value (a
// job name) cuts a line: while a line JobId=... lacks ExitCode=, the last
// key, the next line that is no record of its own is its rest (the
// newline a blank). A requeued job's earlier attempts are written
// JobState=PENDING (Slurm 22.05) or REQUEUED: either is an earlier
// attempt. Job ids are matched within their Cluster (the files of
// several clusters read as one log).
func Jobcomp(r io.Reader, opt Options) (_ *Result, err error) {
	in, done, b, err := begin(r, &opt, "jobcomp")
	if err != nil {
		return nil, err
	}
	defer done()
	defer b.damaged(&err) // (before done: it reads on in the input)
	// A line is read once the next shows it whole: a newline in a value
	// (a job name $'new\nline') cuts it, the rest on the next line. The
	// lines are kept apart and joined once (joining each to the last made
	// a file of short lines quadratic).
	var held []string
	heldNum, size, cut := 0, 0, false
	flush := func() error {
		if len(held) == 0 {
			return nil
		}
		line := strings.Join(held, "\n")
		held = held[:0]
		return jobcompRecord(b, line, heldNum)
	}
	err = eachLine(in, b, func(line string, num int) error {
		if len(held) > 0 && cut && !strings.HasPrefix(line, "JobId=") && size+1+len(line) <= maxLine {
			b.rep.Records-- // (one record of two lines)
			held, size = append(held, line), size+1+len(line)
			cut = !strings.Contains(line, " ExitCode=")
			return nil
		}
		if err := flush(); err != nil {
			return err
		}
		// Only a record's start (JobId=) is cut: a line of anything else
		// is malformed alone, not joined to the lines after it.
		held, heldNum, size = append(held, line), num, len(line)
		cut = strings.HasPrefix(line, "JobId=") && !strings.Contains(line, " ExitCode=")
		return nil
	})
	if err == nil {
		err = flush()
	}
	if err != nil {
		return nil, err
	}
	if err := b.empty(); err != nil {
		return nil, err
	}
	return b.finish()
}

// splitKeyValues splits "K=v K2=v two" into keys and values by the known
// keys; it returns false when the line does not start with a known key,
// and the key when one appears twice: a value (a job name "sweep
// JobState=COMPLETED", a path) holding " KEY=" cannot be told from the
// field. The first was taken and the field appended to the value before
// it, a job FAILED written COMPLETED.
func splitKeyValues(line string, known map[string]bool) (kv map[string]string, ok bool, twice string) {
	kv = map[string]string{}
	toks := strings.Fields(line)
	// A value's tokens are joined once it ends (appending each to the
	// value made a line of many tokens quadratic).
	last, from := "", 0 // the key whose value is read, its first token
	end := func(to int) {
		if last != "" && to > from+1 {
			kv[last] += " " + strings.Join(toks[from+1:to], " ")
		}
	}
	for i, tok := range toks {
		k, v, ok := strings.Cut(tok, "=")
		if ok && known[k] {
			if _, dup := kv[k]; dup {
				return kv, true, k
			}
			end(i)
			kv[k], last, from = v, k, i
			continue
		}
		if last == "" {
			return nil, false, ""
		}
	}
	end(len(toks))
	return kv, true, ""
}

func jobcompRecord(b *builder, line string, num int) error {
	kv, ok, twice := splitKeyValues(line, jobcompKeys)
	if !ok || kv["JobId"] == "" {
		return b.malformed(num, "JobId", line, errors.New("not a jobcomp line (want JobId=... UserId=...)"))
	}
	if twice != "" {
		return b.malformed(num, twice, line, errors.New(twice+" twice: a value (a job name, a path) holding \" "+twice+"=\" cannot be told from the field"))
	}
	key := kv["JobId"]
	if _, err := parseCount(key); err != nil {
		return b.malformed(num, "JobId", key, err)
	}
	r := newRecord(num)
	r.key, r.id = key, key
	if c := kv["Cluster"]; c != "" {
		r.key = c + "/" + key // (the files of several clusters: ids are per cluster, as Sacct's)
	}
	if strings.Contains(line, "\n") {
		r.note(noteJoined)
	}
	if a, t := kv["ArrayJobId"], kv["ArrayTaskId"]; a != "" && a != "0" && t != "" && t != "4294967294" {
		r.id = a + "_" + t
	}
	if h, o := kv["HetJobId"], kv["HetJobOffset"]; h != "" && h != "0" && o != "" && o != "4294967294" {
		r.id = h + "+" + o
		r.note(noteHet)
	}
	var why [3]string
	r.user, why[0] = nameOf(kv["UserId"], "user")
	r.group, why[1] = nameOf(kv["GroupId"], "group")
	r.queue, why[2] = slurmPartition(kv["Partition"])
	for _, n := range why {
		if n != "" {
			r.note(n)
		}
	}
	r.exe = cmp.Or(kv["Name"], kv["JobName"])
	if b.accounts() {
		r.group, r.qos = kv["Account"], kv["QOS"]
	}
	applyState(&r, kv["JobState"])
	if r.state == "FAILED" && kv["ExitCode"] == "0:0" {
		r.note(noteFailedExit0)
	}
	loc := b.opt.location()
	for _, t := range []struct {
		name string
		dst  *int64
	}{{"SubmitTime", &r.submit}, {"StartTime", &r.start}, {"EndTime", &r.end}} {
		v, err := parseTime(kv[t.name], loc)
		if err != nil {
			if err := b.fieldError(&r, t.name, kv[t.name], err); err != nil {
				return err
			}
			continue
		}
		*t.dst = v
	}
	submitted := kv["SubmitTime"]
	if r.submit < 0 {
		// Slurm before 15.08 wrote no SubmitTime; the eligible time is the
		// closest.
		if v, err := parseTime(kv["EligibleTime"], loc); err == nil && v >= 0 {
			r.submit, submitted = v, kv["EligibleTime"]
			r.note("submit time from EligibleTime")
		}
	}
	settleRepeatedHour(&r, [3]string{submitted, kv["StartTime"], kv["EndTime"]}, loc)
	if err := slurmLimit(b, &r, "TimeLimit", kv["TimeLimit"], false); err != nil {
		return err
	}
	// ProcCnt is the job's CPU count: allocated once it ran (NodeList
	// set), the request while it was pending.
	var procs int64 = -1
	if v := kv["ProcCnt"]; v != "" {
		n, err := parseProcs(v)
		if err != nil {
			if err := b.fieldError(&r, "ProcCnt", v, err); err != nil {
				return err
			}
		} else {
			procs = n
		}
	}
	nodes := kv["NodeList"]
	ran := nodes != "" && nodes != "(null)" && nodes != "None" && nodes != "None assigned"
	if procs <= 0 {
		// A job cancelled while held has ProcCnt=0 (Slurm 22.05); its
		// Tres has the CPUs it asked for (its request was lost, -1). So
		// has a job that ran with a ProcCnt unreadable or absent.
		if v, ok := tresValue(kv["Tres"], "cpu"); ok {
			if n, err := parseProcs(v); err == nil && n > 0 {
				procs = n
			}
		}
	}
	if ran {
		r.alloc = procs
		// A job that ran (NodeList set) without a CPU count read: its
		// start time tells it ran, as sacct's without AllocCPUS (it was
		// "ended without starting", its wait and run time -1).
		r.allocUnread = procs <= 0
	} else {
		r.req = procs
	}
	if v, ok := tresValue(kv["Tres"], "mem"); ok {
		total, err := parseSize(v, 1<<20)
		if err != nil {
			if err := b.fieldError(&r, "Tres", v, err); err != nil {
				return err
			}
		} else if procs > 0 {
			r.reqKB = total / 1024 / float64(procs)
		}
	}
	// The demand is the request (Tres: Slurm's tres_fmt_req_str), the
	// only one the file has, on the nodes the job held (NodeCnt), with
	// the CPUs it held (ProcCnt) when more (heldCPUs).
	var dem demandIn
	if key, v, err := slurmTRES(&dem, tresEntries(kv["Tres"])); err != nil {
		dem.bad = true
		if key != "mem" { // reported above
			if err := b.fieldError(&r, "Tres", tresItem(key, v), err); err != nil {
				return err
			}
		}
	}
	if v := kv["NodeCnt"]; v != "" {
		n, err := parseProcs(v)
		switch {
		case err != nil: // (it was skipped without a note)
			dem.bad = true
			if err := b.fieldError(&r, "NodeCnt", v, err); err != nil {
				return err
			}
		case n > 0:
			// The nodes it held, when its requested Tres named fewer.
			moreNodes(&dem, n, r.note, noteHeldNodes)
		}
	}
	if ran {
		heldCPUs(&dem, r.alloc, r.note) // (ProcCnt, the CPUs held)
	}
	if dem.any() || dem.dropped {
		r.dem = &dem
	}
	finishSlurm(&r)
	b.add(r)
	return nil
}

// nameOf returns the name of "alice(1000)" (Slurm's UserId and GroupId:
// name(id)), or, with a note, the number when Slurm could not resolve the
// name ("(null)(1000)", written so when the uid has no passwd entry, or
// "(1000)"): "(null)(1000)" was the user "null)(1000". With no number
// either ("(null)", "(null)()") the user is unknown, noted. what is
// "user" or "group", for the note.
func nameOf(s, what string) (name, note string) {
	i := strings.LastIndexByte(s, '(')
	if i < 0 || !strings.HasSuffix(s, ")") {
		if s == "(null)" {
			return "", what + " unknown ((null), no id)"
		}
		return s, ""
	}
	name, id := s[:i], s[i+1:len(s)-1]
	if name != "" && name != "(null)" {
		return name, ""
	}
	if _, err := parseCount(id); err != nil || id == "" {
		return "", what + " unknown ((null), no id)"
	}
	return id, what + " name unresolved: its id"
}

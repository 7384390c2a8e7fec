package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
)

// The command-line client's seven Karnak queries (and ksystem) against an
// in-process server, found from -server or $KARNAK_HOST/$KARNAK_PORT.
func TestClientCommands(t *testing.T) {
	_, srv := newTestServer(t)
	// Job 1001's key, the cursor of a page that ends with it.
	var submit1001 int64
	for _, e := range testEvents() {
		if e.Kind == "submit" && e.Job == 1001 {
			submit1001 = e.Time
		}
	}
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"ksystems"}, []string{"s1", "running"}},
		{[]string{"ksystem", "s1"}, []string{"system s1", "debug", "normal"}},
		{[]string{"kqueue", "s1"}, []string{"queue all_jobs@s1", "1h", "4h", "1d", "1w"}},
		{[]string{"kqueue", "normal@s1"}, []string{"queue normal@s1"}},
		{[]string{"kjobs", "s1"}, []string{"1001", "1002", "1003"}},
		{[]string{"kwait", "s1", "1002"}, []string{"job 1002", "QBETS  waits at most", "IBL    waits"}},
		{[]string{"kstart", "-c", "90", "-q", "75", "-within", "00:30:00", "s1", "1003"}, []string{"job 1003", "starts by", "90% interval", "within 00:30:00"}},
		{[]string{"kwouldwait", "4", "01:00:00", "normal@s1", "debug@s1"}, []string{"normal@s1: 4 cores", "debug@s1: 4 cores", "IBL    waits"}},
		{[]string{"kwouldstart", "-json", "-q", "75", "4", "01:00:00", "normal@s1"}, []string{`"quantile":75`, `"qbets":{`}},
		{[]string{"ksystems", "-format", "xml"}, []string{`<?xml version="1.0" encoding="UTF-8"?>`, "<systems><systemStatus><system>s1</system>"}},
		{[]string{"kqueue", "-format", "html", "normal@s1"}, []string{"<!DOCTYPE html>", "<h1>Queue normal@s1</h1>", "<svg"}},
		{[]string{"kjobs", "-format", "json", "s1"}, []string{`"job":1001`}},
		{[]string{"kjobs", "-offset", "1", "-limit", "1", "s1"}, []string{"1002", "jobs 2–2 of the 3 waiting", "; next: ?after=", ".1002&limit=1"}},
		{[]string{"kjobs", "-after", fmt.Sprintf("%d.1001", submit1001), "-limit", "1", "s1"}, []string{"1002", "jobs 2–2 of the 3 waiting", "; next: ?after=", ".1002&limit=1"}},
		{[]string{"kwait", "-format", "html", "s1", "1002"}, []string{"Job 1002 on s1: predicted wait", "QBETS bound"}},
		{[]string{"kwouldwait", "-format", "xml", "-within", "00:30:00", "4", "01:00:00", "normal@s1"}, []string{"<predictions><prediction>", "<probWithin>"}},
		{[]string{"kwouldstart", "-format", "html", "4", "01:00:00", "normal@s1"}, []string{"<!DOCTYPE html>", "so starts by"}},
	} {
		var out, errb strings.Builder
		args := append([]string{c.args[0], "-server", srv.URL}, c.args[1:]...)
		if err := run(context.Background(), args, &out, &errb); err != nil {
			t.Errorf("%v: %v\n%s", c.args, err, errb.String())
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(out.String(), w) {
				t.Errorf("%v: %q not in\n%s", c.args, w, out.String())
			}
		}
	}
	// $KARNAK_HOST and $KARNAK_PORT, as Karnak's clients.
	u, err := url.Parse(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("KARNAK_HOST", u.Hostname())
	t.Setenv("KARNAK_PORT", u.Port())
	var out, errb strings.Builder
	if err := run(context.Background(), []string{"ksystems"}, &out, &errb); err != nil || !strings.Contains(out.String(), "s1") {
		t.Errorf("ksystems via $KARNAK_HOST: %v %q", err, out.String())
	}
	// Server-side errors come back with the status and the field.
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"kwait", "s1", "77"}, "404 Not Found: jobId"},
		// In every -format the message alone (the service answers an
		// error in the representation asked for; it printed the JSON
		// object, the XML document or the whole page).
		{[]string{"kwait", "-format", "json", "s1", "77"}, "404 Not Found: jobId"},
		{[]string{"kwait", "-format", "xml", "s1", "77"}, "404 Not Found: jobId"},
		{[]string{"kwait", "-format", "html", "s1", "77"}, "404 Not Found: jobId"},
		{[]string{"kwouldwait", "-format", "html", "4", "soon", "normal@s1"}, `400 Bad Request: line 2: requestedWallTime: "soon"`},
		{[]string{"kjobs", "-json", "-after", "1.-2", "s1"}, `400 Bad Request: after: "1.-2"`},
		{[]string{"kwouldwait", "4", "soon", "normal@s1"}, "400 Bad Request: line 2: requestedWallTime"},
		{[]string{"kwouldwait", "-c", "99", "4", "01:00:00", "normal@s1"}, "-c 99: want a confidence of 10 to 95"}, // (refused before the request)
		{[]string{"kwouldwait", "4", "01:00:00", "normal"}, "location"},
		{[]string{"kwouldwait", "four", "01:00:00", "normal@s1"}, "cores"},
		{[]string{"kjobs"}, "wrong number of arguments"},
		{[]string{"kjobs", "-after", "1.2", "-offset", "1", "s1"}, "-after and -offset: choose one"},
		{[]string{"kjobs", "-after", "1.-2", "s1"}, "400 Bad Request: after: "},
		{[]string{"kfoo"}, "unknown command"},
		{[]string{"ksystems", "-format", "pdf"}, "format: \"pdf\""},
		{[]string{"ksystems", "-json", "-format", "xml"}, "choose one"},
	} {
		var out, errb strings.Builder
		err := run(context.Background(), append([]string{c.args[0], "-server", srv.URL}, c.args[1:]...), &out, &errb)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want one containing %q", c.args, err, c.want)
		}
	}
}

// -h documents every flag of the server and of each client command, and
// is not an error.
func TestHelpDocumentsFlags(t *testing.T) {
	for _, c := range []struct {
		args  []string
		flags []string
	}{
		{[]string{"-h"}, []string{"serve", "ksystems", "ksystem", "kqueue", "kjobs", "kwait", "kstart", "kwouldwait", "kwouldstart"}},
		{[]string{"serve", "-h"}, []string{"-addr", "-db", "-speed", "-nocache", "-now", "-grace", "-replay"}},
		{[]string{"ksystems", "-h"}, []string{"-server", "-json", "-format"}},
		{[]string{"kwait", "-h"}, []string{"-server", "-json", "-format", "-c", "-q", "-within"}},
		{[]string{"kjobs", "-h"}, []string{"-server", "-json", "-format", "-after", "-offset", "-limit"}},
		{[]string{"kwouldstart", "-h"}, []string{"-server", "-json", "-format", "-c", "-q", "-within", "<cores> <hh:mm:ss> <queue@system>"}},
	} {
		var out, errb strings.Builder
		err := run(context.Background(), c.args, &out, &errb)
		if !errors.Is(err, flag.ErrHelp) {
			t.Errorf("%v: %v, want flag.ErrHelp (exit 0)", c.args, err)
		}
		for _, f := range c.flags {
			if !strings.Contains(out.String(), f) {
				t.Errorf("%v: %q not in\n%s", c.args, f, out.String())
			}
		}
	}
}

// TestPartialLocations: kwouldwait and kwouldstart print every location's
// answer and exit 1 when a location got an error instead of a prediction,
// in each format (the service answers such a request 200, §2.3, and the
// client exited 0: a script could not tell).
func TestPartialLocations(t *testing.T) {
	_, srv := newTestServer(t)
	for _, f := range []struct{ format, answer string }{
		{"text", "normal@s1: 4 cores"}, {"json", `"queue":"normal"`}, {"xml", "<queue>normal</queue>"}, {"html", "normal@s1</a></h2>"},
	} {
		for _, cmd := range []string{"kwouldwait", "kwouldstart"} {
			var out, errb strings.Builder
			args := []string{cmd, "-server", srv.URL, "-format", f.format, "4", "01:00:00", "normal@s1", "x@s1", "debug@s1"}
			err := run(context.Background(), args, &out, &errb)
			if err == nil || !strings.Contains(err.Error(), "1 of 3 locations got no prediction") {
				t.Errorf("%s -format %s: error %v, want 1 of 3 locations failed", cmd, f.format, err)
			}
			if !strings.Contains(out.String(), f.answer) || !strings.Contains(out.String(), "x@s1") && !strings.Contains(out.String(), `"x"`) && !strings.Contains(out.String(), ">x<") {
				t.Errorf("%s -format %s: the answers are not all printed:\n%s", cmd, f.format, out.String())
			}
		}
	}
	// A failure is never hidden by an answer that cannot be read back.
	for _, ext := range []string{"json", "xml"} {
		if n := failedLocations(ext, []byte("<html>")); n >= 0 {
			t.Errorf("failedLocations(%s, unreadable) = %d, want -1", ext, n)
		}
	}
}

// The kwould answer, read whole to count its failed locations, is
// bounded: a server that answers 200 with an endless body got the
// client's memory until the 30 s timeout (io.ReadAll); now the client
// stops past 16 MiB with an error, having printed nothing.
func TestWouldAnswerBounded(t *testing.T) {
	var sent atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		chunk := make([]byte, 1<<20)
		for sent.Load() < 1<<30 { // (1 GiB at most, should the client read on)
			if _, err := w.Write(chunk); err != nil {
				return
			}
			sent.Add(int64(len(chunk)))
		}
	}))
	defer srv.Close()
	var out, errb strings.Builder
	err := run(context.Background(), []string{"kwouldwait", "-server", srv.URL, "4", "01:00:00", "normal@s1"}, &out, &errb)
	if err == nil || !strings.Contains(err.Error(), "longer than 16 MiB") || out.Len() != 0 {
		t.Errorf("an endless answer: %v, %d bytes printed; want an error saying it is longer than 16 MiB, nothing printed", err, out.Len())
	}
	if n := sent.Load(); n > 64<<20 {
		t.Errorf("the client read on: %d MiB sent", n>>20)
	}
}

// Every command's answer is bounded, not only kwould's: ksystems, kjobs and
// the others streamed an endless answer to standard output until the
// client's 30 s timeout (hundreds of MiB of a hostile server's bytes).
func TestAnswerBounded(t *testing.T) {
	var sent atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		chunk := bytes.Repeat([]byte("x"), 1<<20)
		for sent.Load() < 1<<30 { // (1 GiB at most, should the client read on)
			if _, err := w.Write(chunk); err != nil {
				return
			}
			sent.Add(int64(len(chunk)))
		}
	}))
	defer srv.Close()
	for _, args := range [][]string{{"ksystems"}, {"ksystem", "s1"}, {"kjobs", "s1"}, {"kwait", "s1", "7"}} {
		var out, errb strings.Builder
		sent.Store(0)
		err := run(context.Background(), append(args, "-server", srv.URL), &out, &errb)
		if err == nil || !strings.Contains(err.Error(), "longer than 16 MiB") || out.Len() != 0 {
			t.Errorf("%q, an endless answer: %v, %d bytes printed; want an error saying it is longer than 16 MiB, nothing printed", args, err, out.Len())
		}
		if n := sent.Load(); n > 64<<20 {
			t.Errorf("%q: the client read on: %d MiB sent", args, n>>20)
		}
	}
}

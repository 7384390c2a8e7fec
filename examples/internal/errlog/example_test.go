package errlog_test

import (
	"log"
	"net/http"
	"os"

	"github.com/batchq/batchq/examples/internal/errlog"
)

// A server's error log passes at most errlog.Burst lines a minute, each
// on one line, and then says how many it left out.
func Example() {
	el := errlog.New(log.New(os.Stdout, "", 0))
	srv := &http.Server{ErrorLog: el.Logger()}
	srv.ErrorLog.Printf("http: TLS handshake error from 127.0.0.1:%d: EOF\r\nwith a second line", 50000)
	for i := 1; i < errlog.Burst+3; i++ {
		srv.ErrorLog.Printf("http: TLS handshake error from 127.0.0.1:%d: EOF", 50000+i)
	}
	el.Flush() // at shutdown
	// Output:
	// http: TLS handshake error from 127.0.0.1:50000: EOF  with a second line
	// http: TLS handshake error from 127.0.0.1:50001: EOF
	// http: TLS handshake error from 127.0.0.1:50002: EOF
	// http: TLS handshake error from 127.0.0.1:50003: EOF
	// http: TLS handshake error from 127.0.0.1:50004: EOF
	// http: TLS handshake error from 127.0.0.1:50005: EOF
	// http: TLS handshake error from 127.0.0.1:50006: EOF
	// http: TLS handshake error from 127.0.0.1:50007: EOF
	// http: TLS handshake error from 127.0.0.1:50008: EOF
	// http: TLS handshake error from 127.0.0.1:50009: EOF
	// http: TLS handshake error from 127.0.0.1:50010: EOF
	// http: TLS handshake error from 127.0.0.1:50011: EOF
	// http: TLS handshake error from 127.0.0.1:50012: EOF
	// http: TLS handshake error from 127.0.0.1:50013: EOF
	// http: TLS handshake error from 127.0.0.1:50014: EOF
	// http: TLS handshake error from 127.0.0.1:50015: EOF
	// http: TLS handshake error from 127.0.0.1:50016: EOF
	// http: TLS handshake error from 127.0.0.1:50017: EOF
	// http: TLS handshake error from 127.0.0.1:50018: EOF
	// http: TLS handshake error from 127.0.0.1:50019: EOF
	// 3 more server errors not logged (at most 20 a 1m0s)
}

package karnak

import (
	"errors"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"
)

// A rate so low that a token takes longer than a Duration holds (any
// finite rate is valid: 10^-12 a second is a token in 31,700 years)
// says so in Retry-After, at most the longest Duration (292 years):
// the conversion wrapped negative, and the 429 said "Retry-After: 1" of
// a bucket empty for centuries, the request's and the forecast's
// payments alike (charge, payer).
func TestRetryAfterSaturates(t *testing.T) {
	s := ingested(t, Config{Rate: 1e-12, Burst: 2})
	get := func() *httptest.ResponseRecorder {
		w := httptest.NewRecorder()
		s.Handler().ServeHTTP(w, httptest.NewRequest("GET", "/karnak/system/status.txt", nil))
		return w
	}
	get()
	get() // the burst spent
	w := get()
	if ra, err := strconv.ParseInt(w.Header().Get("Retry-After"), 10, 64); w.Code != 429 || err != nil || ra < 1e9 {
		t.Errorf("a token in 31,700 years: %d, Retry-After %q, want 429 and at least 10^9 s", w.Code, w.Header().Get("Retry-After"))
	}
	// The payment of a request after charge's: it adds what charge took.
	pay := s.payer(httptest.NewRequest("GET", "/", nil))
	err := pay(1, "")
	var he *Error
	if !errors.As(err, &he) || he.Code != 429 || he.retry < time.Duration(1e9)*time.Second {
		t.Errorf("a payment refused: %v, want a 429 saying at least 10^9 s", err)
	} else if ra := retryAfterOf(he); ra < 1e9 {
		t.Errorf("a payment refused: Retry-After %d s, want at least 10^9", ra)
	}
}

// retryAfterOf is the Retry-After retryAfter writes for err.
func retryAfterOf(err error) int64 {
	w := httptest.NewRecorder()
	retryAfter(w, err)
	n, _ := strconv.ParseInt(w.Header().Get("Retry-After"), 10, 64)
	return n
}

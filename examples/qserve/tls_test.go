package main

import (
	"bufio"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"log"
	"math/big"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/batchq/batchq/examples/internal/errlog"
)

// selfSigned writes a self-signed certificate for 127.0.0.1 and its key
// as PEM files in dir and returns their paths and the certificate.
func selfSigned(t *testing.T, dir string) (certFile, keyFile string, cert *x509.Certificate) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "qserve test"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1)},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	if cert, err = x509.ParseCertificate(der); err != nil {
		t.Fatal(err)
	}
	kb, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	if err := writeFile(certFile, string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))); err != nil {
		t.Fatal(err)
	}
	if err := writeFile(keyFile, string(pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb}))); err != nil {
		t.Fatal(err)
	}
	return certFile, keyFile, cert
}

// serve -tls-cert/-tls-key: the server set up as serve does (loadTLS,
// newServer, serveOn) on 127.0.0.1 answers a client that trusts its
// certificate; a plain-HTTP client, a client that does not trust it and
// one limited to TLS 1.1 get no answer; unreadable files are an error
// naming them.
func TestServeTLS(t *testing.T) {
	s, _ := newTestServer(t)
	dir := t.TempDir()
	certFile, keyFile, cert := selfSigned(t, dir)
	cfg, err := loadTLS(certFile, keyFile)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := newServer(s.Handler(), timeouts{header: 5 * time.Second, read: 5 * time.Second, write: 5 * time.Second, idle: 5 * time.Second})
	srv.TLSConfig = cfg
	srv.ErrorLog = log.New(io.Discard, "", 0) // the refused handshakes below
	done := make(chan error, 1)
	go func() { done <- serveOn(srv, ln) }()
	defer func() {
		srv.Close()
		if err := <-done; !errors.Is(err, http.ErrServerClosed) {
			t.Errorf("serveOn: %v", err)
		}
	}()
	addr := ln.Addr().String()
	client := func(tc *tls.Config) *http.Client {
		return &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{TLSClientConfig: tc}}
	}
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	get := func(c *http.Client, url string) (int, string, error) {
		resp, err := c.Get(url)
		if err != nil {
			return 0, "", err
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b), nil
	}
	code, body, err := get(client(&tls.Config{RootCAs: pool}), "https://"+addr+"/karnak/system/status.txt")
	if err != nil || code != 200 || !strings.Contains(body, "s1") {
		t.Fatalf("trusting client: %d %q %v", code, body, err)
	}
	// Plain HTTP on the TLS port: Go's server answers 400 in plain text
	// and nothing of the service.
	code, body, err = get(client(nil), "http://"+addr+"/karnak/system/status.txt")
	if err == nil && (code == 200 || strings.Contains(body, "s1")) {
		t.Fatalf("plain HTTP client got an answer: %d %q", code, body)
	}
	t.Logf("plain HTTP: %d %q %v", code, strings.TrimSpace(body), err)
	if _, _, err := get(client(&tls.Config{}), "https://"+addr+"/karnak/system/status.txt"); err == nil || !strings.Contains(err.Error(), "certificate") {
		t.Fatalf("client not trusting the certificate: %v, want a certificate error", err)
	}
	if _, _, err := get(client(&tls.Config{RootCAs: pool, MaxVersion: tls.VersionTLS11}), "https://"+addr+"/karnak/system/status.txt"); err == nil {
		t.Fatal("a TLS 1.1 client was served")
	}
	if _, err := loadTLS(filepath.Join(dir, "missing.pem"), keyFile); err == nil || !strings.Contains(err.Error(), "missing.pem") {
		t.Fatalf("missing certificate: %v", err)
	}
	if _, err := loadTLS(keyFile, certFile); err == nil || !strings.Contains(err.Error(), "-tls-cert") {
		t.Fatalf("swapped files: %v", err)
	}
}

// The server's own error log is bounded: net/http writes a line for
// every failed TLS handshake ("http: TLS handshake error from ...") to
// the server's ErrorLog, which serve left to the standard logger, so
// that anyone who can open a connection wrote a line to stderr for each
// (300 connections of garbage, 300 lines). serve's server logs at most
// errlog.Burst of them an errlog.Period and then says how many it
// left out.
func TestServerErrorLogBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("opens 300 connections")
	}
	dir := t.TempDir()
	certFile, keyFile, _ := selfSigned(t, dir)
	pr, pw := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"serve", "-addr", "127.0.0.1:0", "-db", "", "-tokens", "off", "-tls-cert", certFile, "-tls-key", keyFile}, io.Discard, pw)
		pw.Close()
	}()
	addr := make(chan string, 1)
	lines := make(chan []string, 1)
	go func() {
		var all []string
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			if _, u, ok := strings.Cut(sc.Text(), "listening on https://"); ok {
				addr <- strings.TrimSuffix(u, "/karnak/")
			}
			all = append(all, sc.Text())
		}
		lines <- all
	}()
	var a string
	select {
	case a = <-addr:
	case <-time.After(60 * time.Second):
		cancel()
		t.Fatal("serve did not start")
	}
	const conns = 300
	for range conns {
		c, err := net.DialTimeout("tcp", a, 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		c.SetDeadline(time.Now().Add(5 * time.Second))  //nolint:errcheck // bounded either way
		c.Write([]byte("\x16\x03\x01\x00\x05hello!!!")) //nolint:errcheck // a malformed ClientHello
		io.Copy(io.Discard, c)                          //nolint:errcheck // until the server closes it
		c.Close()
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("serve: %v", err)
	}
	all := <-lines
	n := 0
	for _, l := range all {
		if strings.Contains(l, "TLS handshake error") {
			n++
		}
	}
	if n == 0 || n > errlog.Burst {
		t.Errorf("%d connections of garbage: %d handshake errors logged, want 1 to %d", conns, n, errlog.Burst)
	}
	if want := fmt.Sprintf("%d more server errors", conns-n); !strings.Contains(strings.Join(all, "\n"), want) {
		t.Errorf("the lines left out are not counted (no line says %q): %q", want, all[max(0, len(all)-5):])
	}
}

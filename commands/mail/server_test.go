package mail

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"io"
	"log"
	"math/big"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// received is what the test SMTP server got in one transaction.
type received struct {
	from, to string
	data     []byte
	tls      bool   // the connection was encrypted when MAIL FROM arrived
	user     string // the authenticated user, if any
}

// testServer is a go-smtp server on loopback recording every message.
type testServer struct {
	addr string

	user, pass string // non-empty: AUTH PLAIN required with these

	mu   sync.Mutex
	msgs []received
}

type serverOptions struct {
	user, pass string
	tls        bool   // offer STARTTLS (or serve implicit TLS, see implicit)
	implicit   bool   // the listener itself is TLS (smtps)
	listen     string // listen address; default 127.0.0.1:0
}

func startServer(t *testing.T, opt serverOptions) *testServer {
	t.Helper()
	ts := &testServer{user: opt.user, pass: opt.pass}
	srv := smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) {
		return &session{ts: ts, conn: c}, nil
	}))
	srv.Domain = "localhost"
	srv.AllowInsecureAuth = true
	srv.ErrorLog = log.New(io.Discard, "", 0)
	srv.ReadTimeout = 10 * time.Second
	srv.WriteTimeout = 10 * time.Second
	if opt.listen == "" {
		opt.listen = "127.0.0.1:0"
	}
	l, err := net.Listen("tcp", opt.listen)
	if err != nil {
		t.Skipf("cannot listen on %s: %v", opt.listen, err)
	}
	if opt.tls || opt.implicit {
		srv.TLSConfig = &tls.Config{Certificates: []tls.Certificate{selfSigned(t)}}
	}
	if opt.implicit {
		l = tls.NewListener(l, srv.TLSConfig)
	}
	ts.addr = l.Addr().String()
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = srv.Serve(l)
	}()
	t.Cleanup(func() {
		_ = srv.Close()
		_ = l.Close() // Close misses l if Serve has not registered it yet
		<-done
	})
	return ts
}

func (ts *testServer) messages() []received {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return append([]received(nil), ts.msgs...)
}

type session struct {
	ts   *testServer
	conn *smtp.Conn
	cur  received
}

func (s *session) AuthMechanisms() []string {
	if s.ts.user == "" {
		return nil
	}
	return []string{sasl.Plain}
}

func (s *session) Auth(mech string) (sasl.Server, error) {
	if mech != sasl.Plain {
		return nil, smtp.ErrAuthUnknownMechanism
	}
	return sasl.NewPlainServer(func(identity, user, pass string) error {
		if user != s.ts.user || pass != s.ts.pass {
			return smtp.ErrAuthFailed
		}
		s.cur.user = user
		return nil
	}), nil
}

func (s *session) Mail(from string, _ *smtp.MailOptions) error {
	if s.ts.user != "" && s.cur.user == "" {
		return smtp.ErrAuthRequired
	}
	_, s.cur.tls = s.conn.TLSConnectionState()
	s.cur.from = from
	return nil
}

func (s *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	if s.cur.to != "" {
		return errors.New("test server takes one recipient")
	}
	s.cur.to = to
	return nil
}

func (s *session) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	s.cur.data = b
	s.ts.mu.Lock()
	s.ts.msgs = append(s.ts.msgs, s.cur)
	s.ts.mu.Unlock()
	return nil
}

func (s *session) Reset()        { s.cur = received{user: s.cur.user} }
func (s *session) Logout() error { return nil }

// selfSigned returns a certificate for 127.0.0.1 and localhost that no
// system trusts.
func selfSigned(t *testing.T) tls.Certificate {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "strata test"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1)},
		DNSNames:     []string{"localhost"},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
}

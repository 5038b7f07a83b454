package mail

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/mail"
	"net/smtp"
	"net/url"
	"strconv"
	"time"
)

// defaultTimeout bounds one Send when ctx carries no deadline.
const defaultTimeout = 30 * time.Second

// SMTP is a Sender that delivers through an SMTP server with net/smtp.
// Create it with NewSMTP; it is safe for concurrent use (each Send opens
// its own connection).
type SMTP struct {
	addr     string // host:port
	host     string // host name, also the TLS server name
	implicit bool   // smtps: TLS from the first byte
	insecure bool   // skip certificate verification (loopback hosts only)
	user     *url.Userinfo
	from     string
}

// NewSMTP returns an SMTP sender configured from rawURL:
//
//	smtp://[user:pass@]host[:port][?from=...&insecure=1]
//	smtps://[user:pass@]host[:port][?from=...&insecure=1]
//
// smtp:// connects in plain text (default port 587) and upgrades with
// STARTTLS whenever the server offers it; smtps:// uses implicit TLS
// (default port 465). Server certificates are verified; insecure=1 skips
// that and is accepted for loopback hosts only (a local test server with a
// self-signed certificate). With user info present, Send authenticates with
// AUTH PLAIN, which net/smtp allows over plain text only to localhost.
// from sets the From header and envelope sender (default DefaultFrom).
func NewSMTP(rawURL string) (*SMTP, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("mail: SMTP URL does not parse: %w", err)
	}
	s := &SMTP{user: u.User, from: DefaultFrom}
	var defaultPort string
	switch u.Scheme {
	case "smtp":
		defaultPort = "587"
	case "smtps":
		defaultPort, s.implicit = "465", true
	default:
		return nil, fmt.Errorf("mail: SMTP URL scheme must be smtp or smtps, not %q", u.Scheme)
	}
	if u.Opaque != "" || (u.Path != "" && u.Path != "/") {
		return nil, fmt.Errorf("mail: SMTP URL must not have a path, got %q", u.Path+u.Opaque)
	}
	s.host = u.Hostname()
	if s.host == "" {
		return nil, errors.New("mail: SMTP URL has no host")
	}
	port := u.Port()
	if port == "" {
		port = defaultPort
	}
	if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
		return nil, fmt.Errorf("mail: SMTP URL port %q is not a number from 1 to 65535", port)
	}
	s.addr = net.JoinHostPort(s.host, port)

	for key, values := range u.Query() {
		value := values[len(values)-1]
		switch key {
		case "from":
			if _, err := mail.ParseAddress(value); err != nil {
				return nil, fmt.Errorf("mail: SMTP URL option from=%q is not an address: %w", value, err)
			}
			s.from = value
		case "insecure":
			if s.insecure, err = strconv.ParseBool(value); err != nil {
				return nil, fmt.Errorf("mail: SMTP URL option insecure=%q is not a boolean", value)
			}
		default:
			return nil, fmt.Errorf("mail: SMTP URL has unknown option %q (known: from, insecure)", key)
		}
	}
	if s.insecure && !isLoopback(s.host) {
		return nil, fmt.Errorf("mail: SMTP URL option insecure=1 is allowed for loopback hosts only, not %q", s.host)
	}
	return s, nil
}

// Send delivers m through the server, honouring ctx's deadline and
// cancellation (30 s when ctx has no deadline).
func (s *SMTP) Send(ctx context.Context, m Message) error {
	e, err := build(s.from, m, time.Now())
	if err != nil {
		return err
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, defaultTimeout)
		defer cancel()
	}
	deadline, _ := ctx.Deadline()

	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", s.addr)
	if err != nil {
		return fmt.Errorf("mail: connecting to %s: %w", s.addr, err)
	}
	defer conn.Close()
	if err := conn.SetDeadline(deadline); err != nil {
		return fmt.Errorf("mail: %w", err)
	}
	// Cancelling ctx unblocks any read or write in progress.
	stop := context.AfterFunc(ctx, func() { _ = conn.SetDeadline(time.Unix(1, 0)) })
	defer stop()

	if err := s.session(conn, e); err != nil {
		cerr := ctx.Err()
		if cerr == nil && !time.Now().Before(deadline) {
			cerr = context.DeadlineExceeded // the connection's deadline fired first
		}
		if cerr != nil {
			return fmt.Errorf("mail: sending via %s: %w (%w)", s.addr, cerr, err)
		}
		return fmt.Errorf("mail: sending via %s: %w", s.addr, err)
	}
	return nil
}

// session speaks SMTP over conn: TLS, authentication and one message.
func (s *SMTP) session(conn net.Conn, e envelope) error {
	if s.implicit {
		conn = tls.Client(conn, s.tlsConfig())
	}
	c, err := smtp.NewClient(conn, s.host)
	if err != nil {
		return err
	}
	defer c.Close()
	if !s.implicit {
		if ok, _ := c.Extension("STARTTLS"); ok {
			if err := c.StartTLS(s.tlsConfig()); err != nil {
				return fmt.Errorf("STARTTLS: %w", err)
			}
		}
	}
	if s.user != nil {
		if ok, _ := c.Extension("AUTH"); !ok {
			return errors.New("server does not offer AUTH, but the URL has credentials")
		}
		pass, _ := s.user.Password()
		if err := c.Auth(smtp.PlainAuth("", s.user.Username(), pass, s.host)); err != nil {
			return fmt.Errorf("AUTH PLAIN: %w", err)
		}
	}
	if err := c.Mail(e.from); err != nil {
		return fmt.Errorf("MAIL FROM: %w", err)
	}
	if err := c.Rcpt(e.to); err != nil {
		return fmt.Errorf("RCPT TO: %w", err)
	}
	w, err := c.Data()
	if err != nil {
		return fmt.Errorf("DATA: %w", err)
	}
	if _, err := w.Write(e.data); err != nil {
		return fmt.Errorf("DATA: %w", err)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("DATA: %w", err)
	}
	return c.Quit()
}

func (s *SMTP) tlsConfig() *tls.Config {
	return &tls.Config{
		ServerName:         s.host,
		MinVersion:         tls.VersionTLS12,
		InsecureSkipVerify: s.insecure, // NewSMTP allows this for loopback hosts only
	}
}

// isLoopback reports whether host names this machine.
func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

package mail

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"mime"
	"mime/quotedprintable"
	"net/mail"
	"strings"
	"time"
	"unicode/utf8"
)

// DefaultFrom is the From address used when none is configured.
const DefaultFrom = "Strata <no-reply@localhost>"

// Message is one plain-text e-mail to a single recipient.
type Message struct {
	// To is one address, either "user@example.com" or
	// "Name <user@example.com>".
	To string
	// Subject is the subject line; it may contain non-ASCII text.
	Subject string
	// Text is the plain-text body.
	Text string
}

// Sender sends a Message.
type Sender interface {
	// Send sends m, or returns why it could not.
	Send(ctx context.Context, m Message) error
}

// envelope is a built message together with the SMTP envelope addresses.
type envelope struct {
	from, to string // bare addresses for MAIL FROM and RCPT TO
	data     []byte // the RFC 5322 message, CRLF line endings
}

// Build returns m as an RFC 5322 message from the given From address, dated
// now: a text/plain UTF-8 body in quoted-printable encoding, CRLF line
// endings. It refuses a To or Subject containing CR or LF (header injection),
// an invalid address and text that is not valid UTF-8.
func Build(from string, m Message, now time.Time) ([]byte, error) {
	e, err := build(from, m, now)
	if err != nil {
		return nil, err
	}
	return e.data, nil
}

func build(from string, m Message, now time.Time) (envelope, error) {
	fromAddr, err := mail.ParseAddress(from)
	if err != nil {
		return envelope{}, fmt.Errorf("mail: invalid From address %q: %w", from, err)
	}
	if strings.ContainsAny(m.To, "\r\n") {
		return envelope{}, errors.New("mail: To contains a line break (header injection refused)")
	}
	if strings.ContainsAny(m.Subject, "\r\n") {
		return envelope{}, errors.New("mail: Subject contains a line break (header injection refused)")
	}
	toAddr, err := mail.ParseAddress(m.To)
	if err != nil {
		return envelope{}, fmt.Errorf("mail: invalid To address %q: %w", m.To, err)
	}
	if !utf8.ValidString(m.Subject) || !utf8.ValidString(m.Text) {
		return envelope{}, errors.New("mail: Subject or Text is not valid UTF-8")
	}
	id, err := randomHex(16)
	if err != nil {
		return envelope{}, err
	}

	var b bytes.Buffer
	header := func(name, value string) {
		b.WriteString(name + ": " + value + "\r\n")
	}
	header("From", formatAddress(fromAddr))
	header("To", formatAddress(toAddr))
	header("Subject", encodeSubject(m.Subject))
	header("Date", now.Format(time.RFC1123Z))
	header("Message-ID", "<"+id+"@"+domainOf(fromAddr.Address)+">")
	header("MIME-Version", "1.0")
	header("Content-Type", "text/plain; charset=utf-8")
	header("Content-Transfer-Encoding", "quoted-printable")
	b.WriteString("\r\n")

	qp := quotedprintable.NewWriter(&b)
	if _, err := qp.Write([]byte(m.Text)); err != nil {
		return envelope{}, fmt.Errorf("mail: encoding body: %w", err)
	}
	if err := qp.Close(); err != nil {
		return envelope{}, fmt.Errorf("mail: encoding body: %w", err)
	}
	if !bytes.HasSuffix(b.Bytes(), []byte("\r\n")) {
		b.WriteString("\r\n")
	}
	return envelope{from: fromAddr.Address, to: toAddr.Address, data: b.Bytes()}, nil
}

// formatAddress writes a bare address without angle brackets, and a named
// one as net/mail does (RFC 2047-encoding a non-ASCII name).
func formatAddress(a *mail.Address) string {
	if a.Name == "" {
		return a.Address
	}
	return a.String()
}

// encodeSubject RFC 2047-encodes a subject that needs it, folding between
// encoded words so no header line grows past the recommended length.
func encodeSubject(s string) string {
	enc := mime.QEncoding.Encode("utf-8", s)
	if enc == s {
		return s
	}
	return strings.ReplaceAll(enc, "?= =?", "?=\r\n =?")
}

func domainOf(addr string) string {
	if i := strings.LastIndexByte(addr, '@'); i >= 0 && i+1 < len(addr) {
		return addr[i+1:]
	}
	return "localhost"
}

func randomHex(n int) (string, error) {
	buf := make([]byte, n)
	if _, err := rand.Read(buf); err != nil {
		return "", fmt.Errorf("mail: random: %w", err)
	}
	return hex.EncodeToString(buf), nil
}

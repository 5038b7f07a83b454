package mail

import (
	"bytes"
	"io"
	"mime"
	"mime/quotedprintable"
	"net/mail"
	"strings"
	"testing"
	"time"
)

// sample returns a message with a non-ASCII line and a line longer than 76
// characters, which quoted-printable must wrap with soft line breaks.
func sample() Message {
	return Message{
		To:      "Ada Lovelace <ada@example.com>",
		Subject: "Réinitialisation du mot de passe — Strata",
		Text: "Bonjour Ada,\n" +
			"Réinitialisez votre mot de passe : ça prend une minute. ✓\n" +
			"https://strata.example.com/reset?token=" + strings.Repeat("abcdef0123", 10) + "\n" +
			"=== a line with equals signs and trailing space \n" +
			".\n",
	}
}

// checkMessage parses raw as net/mail does and asserts it carries m from
// the given sender, with a body that decodes back to m.Text.
func checkMessage(t *testing.T, raw []byte, from string, m Message) {
	t.Helper()
	head, _, _ := bytes.Cut(raw, []byte("\r\n\r\n"))
	for j, line := range bytes.SplitAfter(raw, []byte("\n")) {
		if len(line) > 0 && line[len(line)-1] == '\n' && !bytes.HasSuffix(line, []byte("\r\n")) {
			t.Fatalf("line %d ends with a bare LF: %q", j+1, line)
		}
		limit := 76 + 2 // quoted-printable body lines, plus CRLF
		if j < bytes.Count(head, []byte("\n"))+1 {
			limit = 998 + 2 // RFC 5322 header line limit
		}
		if len(line) > limit {
			t.Errorf("line %d is %d bytes long: %q", j+1, len(line), line)
		}
	}
	if !bytes.HasSuffix(raw, []byte("\r\n")) {
		t.Errorf("message does not end with CRLF")
	}
	msg, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("net/mail cannot read the message: %v\n%s", err, raw)
	}
	h := msg.Header
	wantFrom, _ := mail.ParseAddress(from)
	gotFrom, err := h.AddressList("From")
	if err != nil || len(gotFrom) != 1 || *gotFrom[0] != *wantFrom {
		t.Errorf("From = %v (%v), want %v", gotFrom, err, wantFrom)
	}
	wantTo, _ := mail.ParseAddress(m.To)
	gotTo, err := h.AddressList("To")
	if err != nil || len(gotTo) != 1 || *gotTo[0] != *wantTo {
		t.Errorf("To = %v (%v), want %v", gotTo, err, wantTo)
	}
	var dec mime.WordDecoder
	subject, err := dec.DecodeHeader(h.Get("Subject"))
	if err != nil || subject != m.Subject {
		t.Errorf("Subject decodes to %q (%v), want %q", subject, err, m.Subject)
	}
	if _, err := h.Date(); err != nil {
		t.Errorf("Date %q: %v", h.Get("Date"), err)
	}
	wantID := "@" + wantFrom.Address[strings.LastIndex(wantFrom.Address, "@")+1:] + ">"
	if id := h.Get("Message-ID"); !strings.HasPrefix(id, "<") || !strings.HasSuffix(id, wantID) || len(id) < len(wantID)+10 {
		t.Errorf("Message-ID = %q, want <random%s", id, wantID)
	}
	for name, want := range map[string]string{
		"MIME-Version":              "1.0",
		"Content-Type":              "text/plain; charset=utf-8",
		"Content-Transfer-Encoding": "quoted-printable",
	} {
		if got := h.Get(name); got != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
	body, err := io.ReadAll(quotedprintable.NewReader(msg.Body))
	if err != nil {
		t.Fatalf("body is not quoted-printable: %v", err)
	}
	want := strings.ReplaceAll(m.Text, "\n", "\r\n")
	if !strings.HasSuffix(want, "\r\n") {
		want += "\r\n"
	}
	if string(body) != want {
		t.Errorf("body decodes to\n%q\nwant\n%q", body, want)
	}
}

func TestBuild(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 30, 0, 0, time.FixedZone("CET", 3600))
	tests := []struct {
		name   string
		from   string
		m      Message
		folded bool // Subject spans several header lines
	}{
		{"non-ASCII subject and body", DefaultFrom, sample(), false},
		{"ASCII subject, bare address", "no-reply@strata.example.com",
			Message{To: "bob@example.com", Subject: "Reset your password", Text: "Hello\nBob"}, false},
		{"long non-ASCII subject is folded", DefaultFrom,
			Message{To: "bob@example.com", Subject: strings.Repeat("Sécurité ", 20), Text: "x"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raw, err := Build(tt.from, tt.m, now)
			if err != nil {
				t.Fatal(err)
			}
			checkMessage(t, raw, tt.from, tt.m)
			if !bytes.Contains(raw, []byte("\r\nDate: Sun, 01 Mar 2026 12:30:00 +0100\r\n")) {
				t.Errorf("Date header not from now:\n%s", raw)
			}
			if strings.Contains(tt.m.Subject, "é") != bytes.Contains(raw, []byte("Subject: =?utf-8?q?")) {
				t.Errorf("Subject should be Q-encoded exactly when non-ASCII:\n%s", raw)
			}
			if got := bytes.Contains(raw, []byte("?=\r\n =?utf-8?q?")); got != tt.folded {
				t.Errorf("Subject folded = %v, want %v:\n%s", got, tt.folded, raw)
			}
		})
	}
}

func TestBuildMessageIDsDiffer(t *testing.T) {
	a, _ := Build(DefaultFrom, sample(), time.Now())
	b, _ := Build(DefaultFrom, sample(), time.Now())
	ma, _ := mail.ReadMessage(bytes.NewReader(a))
	mb, _ := mail.ReadMessage(bytes.NewReader(b))
	if ma.Header.Get("Message-ID") == mb.Header.Get("Message-ID") {
		t.Fatalf("two messages share Message-ID %s", ma.Header.Get("Message-ID"))
	}
}

func TestBuildRefuses(t *testing.T) {
	ok := Message{To: "bob@example.com", Subject: "Hi", Text: "x"}
	tests := []struct {
		name    string
		from    string
		edit    func(*Message)
		wantErr string
	}{
		{"CRLF in To", DefaultFrom, func(m *Message) { m.To = "bob@example.com\r\nBcc: eve@example.com" }, "To contains a line break"},
		{"LF in To", DefaultFrom, func(m *Message) { m.To = "bob@example.com\nBcc: eve@example.com" }, "To contains a line break"},
		{"CR in Subject", DefaultFrom, func(m *Message) { m.Subject = "Hi\rBcc: eve@example.com" }, "Subject contains a line break"},
		{"LF in Subject", DefaultFrom, func(m *Message) { m.Subject = "Hi\n\nfake body" }, "Subject contains a line break"},
		{"empty To", DefaultFrom, func(m *Message) { m.To = "" }, "invalid To address"},
		{"two recipients", DefaultFrom, func(m *Message) { m.To = "a@example.com, b@example.com" }, "invalid To address"},
		{"bad From", "not an address", func(*Message) {}, "invalid From address"},
		{"invalid UTF-8", DefaultFrom, func(m *Message) { m.Text = "\xff" }, "not valid UTF-8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := ok
			tt.edit(&m)
			raw, err := Build(tt.from, m, time.Now())
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("Build = %q, %v; want error containing %q", raw, err, tt.wantErr)
			}
		})
	}
}

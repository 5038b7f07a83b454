package mail

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"
)

func TestNewSMTP(t *testing.T) {
	tests := []struct {
		url      string
		addr     string
		implicit bool
		from     string
	}{
		{"smtp://mail.example.com", "mail.example.com:587", false, DefaultFrom},
		{"smtps://mail.example.com", "mail.example.com:465", true, DefaultFrom},
		{"smtp://u:p@mail.example.com:2525/?from=Strata+%3Cstrata%40example.com%3E", "mail.example.com:2525", false, "Strata <strata@example.com>"},
		{"smtp://[::1]:25?insecure=1", "[::1]:25", false, DefaultFrom},
	}
	for _, tt := range tests {
		t.Run(tt.url, func(t *testing.T) {
			s, err := NewSMTP(tt.url)
			if err != nil {
				t.Fatal(err)
			}
			if s.addr != tt.addr || s.implicit != tt.implicit || s.from != tt.from {
				t.Errorf("got addr %q implicit %v from %q, want %q %v %q", s.addr, s.implicit, s.from, tt.addr, tt.implicit, tt.from)
			}
		})
	}
}

func TestNewSMTPRejects(t *testing.T) {
	tests := []struct {
		name, url, wantErr string
	}{
		{"bad scheme", "http://mail.example.com", `scheme must be smtp or smtps, not "http"`},
		{"no scheme", "mail.example.com:25", "scheme must be smtp or smtps"},
		{"missing host", "smtp://", "has no host"},
		{"missing host with port", "smtp://user:pass@:25", "has no host"},
		{"port not a number", "smtp://mail.example.com:smtp", "does not parse"},
		{"port out of range", "smtp://mail.example.com:70000", `port "70000"`},
		{"path", "smtp://mail.example.com/inbox", "must not have a path"},
		{"unknown option", "smtp://mail.example.com?form=a@b.c", `unknown option "form"`},
		{"bad from", "smtp://mail.example.com?from=nobody", "from=\"nobody\" is not an address"},
		{"bad insecure", "smtp://localhost?insecure=maybe", "insecure=\"maybe\" is not a boolean"},
		{"insecure remote", "smtps://mail.example.com?insecure=1", "loopback hosts only"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := NewSMTP(tt.url)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("NewSMTP(%q) = %v, %v; want error containing %q", tt.url, s, err, tt.wantErr)
			}
		})
	}
}

func TestSMTPSend(t *testing.T) {
	tests := []struct {
		name     string
		server   serverOptions
		url      string // %s is the server's address
		wantTLS  bool
		wantUser string
	}{
		{"plain, no auth", serverOptions{}, "smtp://%s", false, ""},
		{"plain, AUTH PLAIN on loopback", serverOptions{user: "strata", pass: "s3cr:t/?"}, "smtp://strata:s3cr%3At%2F%3F@%s", false, "strata"},
		{"STARTTLS, self-signed, insecure=1", serverOptions{tls: true, user: "strata", pass: "pw"}, "smtp://strata:pw@%s?insecure=1", true, "strata"},
		{"smtps, self-signed, insecure=1", serverOptions{implicit: true, user: "strata", pass: "pw"}, "smtps://strata:pw@%s/?insecure=1", true, "strata"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := startServer(t, tt.server)
			from := "Strata Identity <identity@strata.example.com>"
			s, err := NewSMTP(strings.Replace(tt.url, "%s", ts.addr, 1) + sep(tt.url) + "from=" + "Strata+Identity+%3Cidentity@strata.example.com%3E")
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			if err := s.Send(ctx, sample()); err != nil {
				t.Fatalf("Send: %v", err)
			}
			got := ts.messages()
			if len(got) != 1 {
				t.Fatalf("server received %d messages, want 1", len(got))
			}
			r := got[0]
			if r.from != "identity@strata.example.com" || r.to != "ada@example.com" {
				t.Errorf("MAIL FROM %q, RCPT TO %q", r.from, r.to)
			}
			if r.tls != tt.wantTLS || r.user != tt.wantUser {
				t.Errorf("tls %v user %q, want %v %q", r.tls, r.user, tt.wantTLS, tt.wantUser)
			}
			checkMessage(t, r.data, from, sample())
		})
	}
}

// sep returns the separator that appends a query option to url.
func sep(url string) string {
	if strings.Contains(url, "?") {
		return "&"
	}
	return "?"
}

func TestSMTPSendFails(t *testing.T) {
	tests := []struct {
		name    string
		server  serverOptions
		url     string
		wantErr string
	}{
		{"wrong password", serverOptions{user: "strata", pass: "right"}, "smtp://strata:wrong@%s", "AUTH PLAIN"},
		{"unknown user", serverOptions{user: "strata", pass: "right"}, "smtp://eve:right@%s", "AUTH PLAIN"},
		{"auth required, none given", serverOptions{user: "strata", pass: "right"}, "smtp://%s", "MAIL FROM"},
		{"credentials, server offers no AUTH", serverOptions{}, "smtp://strata:pw@%s", "does not offer AUTH"},
		// net/smtp sends PLAIN in clear text only to localhost, 127.0.0.1 and
		// ::1; 127.0.0.2 is loopback too, but not on that list.
		{"AUTH PLAIN in clear text to 127.0.0.2", serverOptions{user: "strata", pass: "pw", listen: "127.0.0.2:0"}, "smtp://strata:pw@%s", "unencrypted connection"},
		{"STARTTLS, self-signed, verified", serverOptions{tls: true}, "smtp://%s", "certificate"},
		{"smtps, self-signed, verified", serverOptions{implicit: true}, "smtps://%s", "certificate"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := startServer(t, tt.server)
			s, err := NewSMTP(strings.Replace(tt.url, "%s", ts.addr, 1))
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			err = s.Send(ctx, sample())
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("Send = %v, want error containing %q", err, tt.wantErr)
			}
			if got := ts.messages(); len(got) != 0 {
				t.Errorf("server received %d messages, want none", len(got))
			}
		})
	}
}

func TestSMTPRefusesHeaderInjection(t *testing.T) {
	ts := startServer(t, serverOptions{})
	s, err := NewSMTP("smtp://" + ts.addr)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []Message{
		{To: "bob@example.com\r\nBcc: eve@example.com", Subject: "Hi", Text: "x"},
		{To: "bob@example.com", Subject: "Hi\nBcc: eve@example.com", Text: "x"},
	} {
		if err := s.Send(context.Background(), m); err == nil || !strings.Contains(err.Error(), "header injection") {
			t.Errorf("Send(%q, %q) = %v, want header injection error", m.To, m.Subject, err)
		}
	}
	if got := ts.messages(); len(got) != 0 {
		t.Errorf("server received %d messages, want none", len(got))
	}
}

// TestSMTPSendHonoursContext talks to a server that accepts the connection
// but never greets: Send must give up when ctx does.
func TestSMTPSendHonoursContext(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			t.Cleanup(func() { c.Close() })
		}
	}()
	s, err := NewSMTP("smtp://" + l.Addr().String())
	if err != nil {
		t.Fatal(err)
	}

	t.Run("deadline", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		start := time.Now()
		err := s.Send(ctx, sample())
		if err == nil || !strings.Contains(err.Error(), "deadline exceeded") {
			t.Fatalf("Send = %v, want deadline exceeded", err)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Fatalf("Send took %v", d)
		}
	})
	t.Run("cancel", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(200*time.Millisecond, cancel)
		start := time.Now()
		err := s.Send(ctx, sample())
		if err == nil || !strings.Contains(err.Error(), "context canceled") {
			t.Fatalf("Send = %v, want context canceled", err)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Fatalf("Send took %v", d)
		}
	})
}

package mail

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestMailbox(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "mailbox") // Send creates it
	var logs bytes.Buffer
	mb := NewMailbox(dir, slog.New(slog.NewTextHandler(&logs, nil)))

	if paths, err := mb.Messages(); err != nil || len(paths) != 0 {
		t.Fatalf("Messages before any Send = %v, %v; want none", paths, err)
	}
	second := Message{To: "bob@example.com", Subject: "Second", Text: "two"}
	for _, m := range []Message{sample(), second} {
		if err := mb.Send(context.Background(), m); err != nil {
			t.Fatal(err)
		}
	}
	paths, err := mb.Messages()
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) != 2 {
		t.Fatalf("Messages = %v, want 2 paths", paths)
	}
	for i, want := range []Message{sample(), second} {
		if filepath.Dir(paths[i]) != dir || !strings.HasSuffix(paths[i], ".eml") {
			t.Errorf("path %q is not an .eml in %s", paths[i], dir)
		}
		fi, err := os.Stat(paths[i])
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o600 {
			t.Errorf("%s has mode %v, want 0600", paths[i], fi.Mode().Perm())
		}
		raw, err := os.ReadFile(paths[i])
		if err != nil {
			t.Fatal(err)
		}
		checkMessage(t, raw, DefaultFrom, want) // oldest first
		if !strings.Contains(logs.String(), "path="+paths[i]) {
			t.Errorf("log does not name %s:\n%s", paths[i], logs.String())
		}
	}
	if fi, err := os.Stat(dir); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("mailbox dir mode = %v (%v), want 0700", fi.Mode().Perm(), err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("mailbox holds %d files, want 2 (no temp files left behind)", len(entries))
	}
	for _, want := range []string{"level=INFO", `msg="mail written to dev mailbox"`, "to=bob@example.com", "subject=Second"} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, logs.String())
		}
	}
}

func TestMailboxRefuses(t *testing.T) {
	mb := NewMailbox(t.TempDir(), slog.New(slog.DiscardHandler))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := mb.Send(ctx, sample()); err == nil {
		t.Error("Send with a cancelled context succeeded")
	}
	if err := mb.Send(context.Background(), Message{To: "bob@example.com", Subject: "a\r\nBcc: eve@example.com"}); err == nil || !strings.Contains(err.Error(), "header injection") {
		t.Errorf("Send = %v, want header injection error", err)
	}
	if paths, err := mb.Messages(); err != nil || len(paths) != 0 {
		t.Errorf("Messages = %v, %v; want none", paths, err)
	}
}

func TestNew(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name, smtpURL, mailDir string
		want                   string // "smtp", "mailbox" or an error substring
	}{
		{"SMTP URL wins", "smtp://mail.example.com", dir, "smtp"},
		{"no SMTP URL", "", dir, "mailbox"},
		{"bad SMTP URL", "smtpx://mail.example.com", dir, "scheme must be smtp or smtps"},
		{"nothing configured", "", "", "neither an SMTP URL nor a dev mailbox directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := New(tt.smtpURL, tt.mailDir, nil)
			switch s.(type) {
			case *SMTP:
				if tt.want != "smtp" || err != nil {
					t.Errorf("New = SMTP, %v; want %s", err, tt.want)
				}
			case *Mailbox:
				if tt.want != "mailbox" || err != nil {
					t.Errorf("New = Mailbox, %v; want %s", err, tt.want)
				}
			case nil:
				if err == nil || !strings.Contains(err.Error(), tt.want) {
					t.Errorf("New = nil, %v; want %s", err, tt.want)
				}
			default:
				t.Errorf("New = %T (%v), %v; want %s", s, s, err, tt.want)
			}
		})
	}
}

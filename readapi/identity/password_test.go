package identity_test

import (
	"io"
	"mime/quotedprintable"
	"net/http"
	"net/mail"
	"os"
	"regexp"
	"testing"
	"time"
)

var tokenInLink = regexp.MustCompile(`reset-password\?token=([A-Za-z0-9_-]+)`)

// resetToken waits for the n-th mail in the dev mailbox and returns the
// reset token in its link.
func (e *env) resetToken(n int) string {
	e.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		paths, err := e.mailbox.Messages()
		if err != nil {
			e.t.Fatal(err)
		}
		if len(paths) >= n {
			f, err := os.Open(paths[n-1])
			if err != nil {
				e.t.Fatal(err)
			}
			defer f.Close()
			msg, err := mail.ReadMessage(f)
			if err != nil {
				e.t.Fatal(err)
			}
			body, err := io.ReadAll(quotedprintable.NewReader(msg.Body))
			if err != nil {
				e.t.Fatal(err)
			}
			m := tokenInLink.FindSubmatch(body)
			if m == nil {
				e.t.Fatalf("no reset link in mail:\n%s", body)
			}
			return string(m[1])
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("mail %d did not arrive", n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func (e *env) forgot(email string) {
	e.t.Helper()
	st, body, _ := e.call("POST", "/api/v1/auth/forgot-password", map[string]any{"email": email})
	if st != http.StatusAccepted {
		e.t.Fatalf("forgot: %d %v", st, body)
	}
}

func (e *env) reset(token, password string) (int, map[string]any) {
	e.t.Helper()
	st, body, _ := e.call("POST", "/api/v1/auth/reset-password", map[string]any{"token": token, "new_password": password})
	return st, body
}

func TestResetTokenWorksOnceWithinAnHourAndOnlyWhileNewest(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	_, old := e.register("reset@example.com")

	// Unknown accounts get the same answer and no mail.
	st1, b1, _ := e.call("POST", "/api/v1/auth/forgot-password", map[string]any{"email": "nobody@example.com"})
	st2, b2, _ := e.call("POST", "/api/v1/auth/forgot-password", map[string]any{"email": "reset@example.com"})
	if st1 != st2 || b1["message"] != b2["message"] {
		t.Fatalf("forgot answers differ: %d %v / %d %v", st1, b1, st2, b2)
	}
	first := e.resetToken(1)
	if paths, _ := e.mailbox.Messages(); len(paths) != 1 {
		t.Fatalf("%d mails, want 1 (none for the unknown address)", len(paths))
	}

	// A newer token supersedes the first.
	e.forgot("reset@example.com")
	second := e.resetToken(2)
	if st, body := e.reset(first, "N3w-password!"); st != http.StatusBadRequest || body["field"] != "token" {
		t.Errorf("superseded token: %d %v", st, body)
	}
	if st, body := e.reset(second, "weak"); st != http.StatusBadRequest || body["field"] != "new_password" {
		t.Errorf("weak new password: %d %v", st, body)
	}
	if st, body := e.reset(second, "N3w-password!"); st != http.StatusOK {
		t.Fatalf("reset: %d %v", st, body)
	}
	if st, _ := e.reset(second, "An0ther-pass!"); st != http.StatusBadRequest {
		t.Errorf("second use of the token: %d", st)
	}
	if st := e.whoami(bearerH(old)...); st != http.StatusUnauthorized {
		t.Errorf("token issued before the reset: %d", st)
	}
	if st, _, _ := e.call("POST", "/api/v1/auth/login", map[string]any{"email": "reset@example.com", "password": goodPassword}); st != http.StatusUnauthorized {
		t.Errorf("old password after reset: %d", st)
	}
	if st, _, _ := e.call("POST", "/api/v1/auth/login", map[string]any{"email": "reset@example.com", "password": "N3w-password!"}); st != http.StatusOK {
		t.Errorf("new password after reset: %d", st)
	}

	// A token older than an hour is refused.
	e.forgot("reset@example.com")
	third := e.resetToken(3)
	e.clock.Advance(time.Hour)
	if st, _ := e.reset(third, "Th1rd-password!"); st != http.StatusBadRequest {
		t.Errorf("token after an hour: %d", st)
	}
	if st, _ := e.reset("made-up-token", "Th1rd-password!"); st != http.StatusBadRequest {
		t.Errorf("made-up token: %d", st)
	}
}

func TestChangePasswordRevokesEarlierTokens(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	_, tok := e.register("change@example.com")
	st, second, _ := e.call("POST", "/api/v1/auth/login", map[string]any{"email": "change@example.com", "password": goodPassword})
	if st != http.StatusOK {
		t.Fatal(st)
	}
	st, body, _ := e.call("POST", "/api/v1/auth/change-password", map[string]any{"current_password": "Wr0ng-password", "new_password": "N3w-password!"}, bearerH(tok)...)
	if st != http.StatusBadRequest || body["field"] != "current_password" {
		t.Fatalf("wrong current password: %d %v", st, body)
	}
	st, body, _ = e.call("POST", "/api/v1/auth/change-password", map[string]any{"current_password": goodPassword, "new_password": "nouppercase1!"}, bearerH(tok)...)
	if st != http.StatusBadRequest || body["rule"] != "uppercase" {
		t.Fatalf("weak new password: %d %v", st, body)
	}
	st, body, _ = e.call("POST", "/api/v1/auth/change-password", map[string]any{"current_password": goodPassword, "new_password": "N3w-password!"}, bearerH(tok)...)
	if st != http.StatusOK || body["access_token"] == nil {
		t.Fatalf("change: %d %v", st, body)
	}
	for name, old := range map[string]string{"caller's": tok, "other session's": second["access_token"].(string)} {
		if st := e.whoami(bearerH(old)...); st != http.StatusUnauthorized {
			t.Errorf("%s token after the change: %d", name, st)
		}
	}
	if st := e.whoami(bearerH(body["access_token"].(string))...); st != http.StatusOK {
		t.Errorf("token returned by the change: %d", st)
	}
}

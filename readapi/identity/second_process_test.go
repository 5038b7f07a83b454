package identity_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"path/filepath"
	"testing"

	cmd "github.com/strata-platform/strata/commands/identity"
	"github.com/strata-platform/strata/commands/mail"
	"github.com/strata-platform/strata/projections/accounts"
	"github.com/strata-platform/strata/readapi/identity"
	"github.com/strata-platform/strata/readapi/identity/identitytest"
)

// TestAnotherProcessKnowsNewCredentialsAtOnce: an account registered and
// an API key created through one process authenticate through another at
// once, although the other's directory has not been woken yet: a lookup
// that misses catches the directory up before it refuses.
func TestAnotherProcessKnowsNewCredentialsAtOnce(t *testing.T) {
	t.Parallel()
	e := identitytest.Start(t, identity.Options{})
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	// The second process: its own directory over the same database, started
	// (caught up once) but never tailing the store.
	dir := accounts.New(e.DB, e.Reg, logger)
	other := cmd.NewService(e.Store, dir, e.Master, mail.NewMailbox(filepath.Join(t.TempDir(), "mail"), logger), e.Clock, logger,
		cmd.Config{Issuer: e.URL, Argon2: identitytest.CheapArgon2})
	if err := other.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	auth := identity.NewAuthenticator(other)

	s, err := e.Svc.Register(context.Background(), cmd.Register{Email: "late@second.test", Password: "Correct-horse-battery-9!", FullName: "Late"})
	if err != nil {
		t.Fatal(err)
	}
	k, err := e.Svc.IssueKey(context.Background(), cmd.IssueKey{UserID: s.User.ID, Name: "fresh"})
	if err != nil {
		t.Fatal(err)
	}
	for name, hdr := range map[string][2]string{
		"session token": {"Authorization", "Bearer " + s.AccessToken},
		"API key":       {"X-API-Key", k.Secret},
	} {
		r, _ := http.NewRequest("GET", e.URL+"/api/v1/auth/me", nil)
		r.Header.Set(hdr[0], hdr[1])
		p, err := auth.Authenticate(r)
		if err != nil || p.UserID != s.User.ID {
			t.Fatalf("%s created through one process, used through another: %+v, %v", name, p, err)
		}
	}
}

package identity

import (
	"errors"
	"testing"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

// provisionedUser is an account a checkout created, folded from its events.
func provisionedUser(later ...kernel.Event) *User {
	u := &User{}
	u.Apply(&UserRegistered{UserID: "u1", Email: "Ada@Example.com", FullName: "Ada", PasswordHash: "$argon2id$x",
		Role: RoleUser, Plan: PlanFree, StripeSessionID: "cs_1", Provisioned: true, At: time.Unix(0, 0)})
	for _, e := range later {
		u.Apply(e)
	}
	return u
}

func TestAProvisionedAccountAwaitsCompletionUntilItsOwnerTakesIt(t *testing.T) {
	if u := provisionedUser(); !u.AwaitingCompletion || u.Version != 1 {
		t.Fatalf("provisioned: awaiting %v, version %d", u.AwaitingCompletion, u.Version)
	}
	registered := &User{}
	registered.Apply(&UserRegistered{UserID: "u2", Email: "b@example.com"})
	if registered.AwaitingCompletion {
		t.Fatal("a registered account awaits completion")
	}
	setPw := &PasswordResetRequested{UserID: "u1", TokenHash: "h", ExpiresAt: time.Unix(0, 0).Add(SetPasswordTokenTTL), Purpose: PurposeSetPassword}
	if u := provisionedUser(setPw); !u.AwaitingCompletion || u.Reset.TokenHash != "h" {
		t.Fatal("a set-password link issued completes the account")
	}
	u := provisionedUser(setPw, &AccountCompleted{UserID: "u1", SessionID: "cs_1", FullName: "Ada Lovelace", PasswordHash: "$argon2id$y", SecurityStamp: 1})
	if u.AwaitingCompletion || u.FullName != "Ada Lovelace" || u.PasswordHash != "$argon2id$y" || u.SecurityStamp != 1 || !u.Reset.Used {
		t.Fatalf("completed by registration: %+v", u)
	}
	if err := u.CanReset("h", time.Unix(60, 0)); err == nil {
		t.Fatal("the set-password link works after the account was completed")
	}
	u = provisionedUser(setPw, &PasswordResetCompleted{UserID: "u1", TokenHash: "h", PasswordHash: "$argon2id$z", SecurityStamp: 1})
	if u.AwaitingCompletion {
		t.Fatal("a password set with the link leaves the account awaiting completion")
	}
}

func TestCanComplete(t *testing.T) {
	created := &CheckoutAccount{}
	created.Apply(&CheckoutProvisioned{SessionID: "cs_1", UserID: "u1"})
	linked := &CheckoutAccount{}
	linked.Apply(&CheckoutLinked{SessionID: "cs_2", UserID: "u1", Reason: LinkEmail})
	if created.UserID != "u1" || !created.Created || linked.Created || linked.Reason != LinkEmail || linked.Version != 1 {
		t.Fatalf("folds: %+v %+v", created, linked)
	}
	deactivated := provisionedUser(&UserDeactivated{UserID: "u1"})
	completed := provisionedUser(&AccountCompleted{UserID: "u1"})
	for _, c := range []struct {
		name        string
		acc         *CheckoutAccount
		u           *User
		email       string
		field, rule string
	}{
		{"the payer, any case", created, provisionedUser(), " ada@EXAMPLE.com ", "", ""},
		{"another email", created, provisionedUser(), "eve@example.com", "email", "checkout_email"},
		{"completed", created, completed, "ada@example.com", "stripe_session_id", "session_used"},
		{"completed, another email", created, completed, "eve@example.com", "email", "checkout_email"},
		{"deactivated", created, deactivated, "ada@example.com", "stripe_session_id", "session_used"},
		{"linked to an existing account", linked, provisionedUser(), "eve@example.com", "stripe_session_id", "session_used"},
	} {
		err := c.acc.CanComplete(c.u, c.email)
		var ke *kernel.Error
		switch {
		case c.rule == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.rule != "" && (!errors.As(err, &ke) || ke.Field != c.field || ke.Rule != c.rule):
			t.Errorf("%s: %v, want %s/%s", c.name, err, c.field, c.rule)
		}
	}
	if kernel.KindOf(SessionUsed()) != kernel.KindConflict {
		t.Error("a used session is not a conflict")
	}
}

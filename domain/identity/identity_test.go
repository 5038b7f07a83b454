package identity

import (
	"strings"
	"testing"
	"time"
)

func TestPasswordProblemsNamesEveryBrokenRule(t *testing.T) {
	cases := []struct {
		pw   string
		want string
	}{
		{"Corr3ct-horse", ""},
		{"Sh0rt!", "min_length:8"},
		{"lowercase-only1", "uppercase"},
		{"UPPERCASE-ONLY1", "lowercase"},
		{"No-digits-here", "digit"},
		{"NoSpecials123", "special_character"},
		{"Spaces Are Not 1", "special_character"},
		{"abc", "min_length:8,uppercase,digit,special_character"},
		{"Ünïcödé-Päss1", ""},
		{strings.Repeat("Aa1!", 33), "max_length:128"},
	}
	for _, c := range cases {
		if got := strings.Join(PasswordProblems(c.pw), ","); got != c.want {
			t.Errorf("PasswordProblems(%q) = %q, want %q", c.pw, got, c.want)
		}
	}
	if err := CheckPassword("password", ""); err == nil || !strings.Contains(err.Error(), "required") {
		t.Errorf("empty password: %v", err)
	}
}

func TestNormalizeEmail(t *testing.T) {
	for in, want := range map[string]string{"Ann@Example.COM": "ann@example.com", "  bo@x.io ": "bo@x.io"} {
		if got, err := NormalizeEmail("email", in); err != nil || got != want {
			t.Errorf("NormalizeEmail(%q) = %q, %v", in, got, err)
		}
	}
	for _, bad := range []string{"", "no-at", "Ann <ann@example.com>", "a@localhost", "a@b@c.d"} {
		if _, err := NormalizeEmail("email", bad); err == nil {
			t.Errorf("NormalizeEmail(%q) accepted", bad)
		}
	}
}

func TestParseKey(t *testing.T) {
	body := strings.Repeat("a", LookupLen) + strings.Repeat("B", SecretLen)
	for _, p := range []string{PrefixLive, PrefixTest, PrefixTemporary, PrefixClaimed} {
		prefix, lookup, secret, ok := ParseKey(p + "_" + body)
		if !ok || prefix != p || lookup != body[:LookupLen] || secret != body[LookupLen:] {
			t.Errorf("ParseKey(%s_...) = %q %q %q %v", p, prefix, lookup, secret, ok)
		}
	}
	for _, bad := range []string{"sk_live_short", "pk_live_" + body, "sk_live_" + body[:47] + "!", "eyJhbGciOi.x.y"} {
		if _, _, _, ok := ParseKey(bad); ok {
			t.Errorf("ParseKey(%q) accepted", bad)
		}
	}
}

func TestVerifyStatuses(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	live := &Key{Prefix: PrefixLive, ExpiresAt: now.Add(time.Hour)}
	tmp := &Key{Prefix: PrefixTemporary, ExpiresAt: now.Add(time.Hour)}
	expiredTmp := &Key{Prefix: PrefixTemporary, ExpiresAt: now}
	cases := []struct {
		k       *Key
		plan    string
		credits int64
		want    string
		chat    bool
	}{
		{live, PlanProfessional, 10, StatusReady, true},
		{live, PlanBasic, 0, StatusInsufficientCredits, false},
		{live, PlanFree, 100, StatusUpgradeRequired, false},
		{tmp, PlanFree, 0, StatusTrialActive, false},
		{expiredTmp, PlanFree, 0, StatusTrialExpired, false},
	}
	for _, c := range cases {
		v := Verify(c.k, &User{Plan: c.plan}, c.credits, now)
		if v.Status != c.want || v.Capabilities.ChatCompletions != c.chat {
			t.Errorf("%s key, plan %s, %d credits: %+v, want %s", c.k.Prefix, c.plan, c.credits, v, c.want)
		}
	}
}

func TestCanResetOnlyNewestUnusedUnexpired(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	u := &User{}
	u.Apply(&UserRegistered{UserID: "u"})
	u.Apply(&PasswordResetRequested{UserID: "u", TokenHash: "old", ExpiresAt: now.Add(time.Hour)})
	u.Apply(&PasswordResetRequested{UserID: "u", TokenHash: "new", ExpiresAt: now.Add(time.Hour)})
	if u.CanReset("old", now) == nil {
		t.Error("superseded token accepted")
	}
	if u.CanReset("new", now.Add(time.Hour)) == nil {
		t.Error("token accepted at its expiry")
	}
	if err := u.CanReset("new", now); err != nil {
		t.Errorf("newest token refused: %v", err)
	}
	u.Apply(&PasswordResetCompleted{UserID: "u", TokenHash: "new", SecurityStamp: 1})
	if u.CanReset("new", now) == nil || u.SecurityStamp != 1 {
		t.Error("used token accepted again")
	}
}

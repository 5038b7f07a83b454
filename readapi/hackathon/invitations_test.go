package hackathon_test

import (
	"net/http"
	"strings"
	"testing"
)

// TestJudgeInvitations: an organiser invites by email; the mailed token
// works once, only for the account with that address; the link shows the
// invitation without credentials.
func TestJudgeInvitations(t *testing.T) {
	s := newServer(t)
	org, jude, mallory := s.actor(t, "org"), s.actor(t, "jude"), s.actor(t, "mallory")
	id := s.liveHackathon(t, org.Token, map[string]any{"name": "Judged Hack"})
	inv := path(id, "/invite-judges")
	join := path(id, "/join")

	refused(t, s.raw("POST", inv, mallory.Token, map[string]any{"emails": []string{mallory.Email}}), http.StatusForbidden, inv, "organisers")
	refused(t, s.raw("POST", inv, org.Token, map[string]any{"emails": []string{"not-an-address"}}), http.StatusBadRequest, inv, "emails[0]")
	refused(t, s.raw("POST", inv, org.Token, map[string]any{"emails": []string{}}), http.StatusBadRequest, inv, "emails")

	// Address case does not matter; a duplicate is invited once.
	out := s.must(t, http.StatusCreated, "POST", inv, org.Token, map[string]any{"emails": []string{strings.ToUpper(jude.Email), jude.Email}})
	if got := out["invitations"].([]any); len(got) != 1 || got[0].(map[string]any)["email"] != jude.Email {
		t.Fatalf("invitations %v, want one for %s", got, jude.Email)
	}
	if n := len(s.Mail.to(jude.Email)); n != 1 {
		t.Fatalf("%d mails to %s, want 1", n, jude.Email)
	}
	msg := s.Mail.to(jude.Email)[0]
	if !strings.Contains(msg.Subject, "Judged Hack") || !strings.Contains(msg.Text, s.URL+"/api/v1/hackathons/"+id+"/invitations/") {
		t.Fatalf("invitation mail: %q\n%s", msg.Subject, msg.Text)
	}
	token := s.invitation(t, jude.Email)
	if r := s.raw("POST", inv, org.Token, map[string]any{"emails": []string{"x@hackathon.test"}}); r.Status != http.StatusCreated ||
		strings.Contains(string(r.Raw), "hjinv_") {
		t.Fatalf("invitation answer (it must not show the token): %d %s", r.Status, r.Raw)
	}

	// The link works without credentials.
	link := path(id, "/invitations/"+token)
	show := func(want string) {
		t.Helper()
		r := s.raw("GET", link, "", nil)
		if r.Status != http.StatusOK || r.Body["status"] != want || r.Body["email"] != jude.Email || r.Body["hackathon_name"] != "Judged Hack" {
			t.Fatalf("invitation link: %d %s, want status %s", r.Status, r.Raw, want)
		}
	}
	show("pending")
	refused(t, s.raw("GET", path(id, "/invitations/hjinv_nope"), "", nil), http.StatusNotFound, path(id, "/invitations/hjinv_nope"))

	// Another account cannot use it; a judge without a token cannot join.
	refused(t, s.raw("POST", join, mallory.Token, map[string]any{"role": "judge", "invitation_token": token}), http.StatusForbidden, join, "invitation")
	refused(t, s.raw("POST", join, jude.Token, map[string]any{"role": "judge"}), http.StatusForbidden, join, "invitation")
	show("pending")

	p := s.must(t, http.StatusCreated, "POST", join, jude.Token, map[string]any{"role": "judge", "invitation_token": token})
	if p["user_id"] != jude.ID || len(p["roles"].([]any)) != 1 || p["roles"].([]any)[0] != "judge" {
		t.Fatalf("joined as %v", p)
	}
	show("accepted")
	s.must(t, http.StatusOK, "POST", join, jude.Token, map[string]any{"role": "judge", "invitation_token": token}) // already a judge

	// The token is spent: no one else can use it.
	refused(t, s.raw("POST", join, mallory.Token, map[string]any{"role": "judge", "invitation_token": token}), http.StatusForbidden, join)
	judges := items(t, s.must(t, http.StatusOK, "GET", path(id, "/participants?role=judge"), org.Token, nil))
	if len(judges) != 1 || judges[0]["user_id"] != jude.ID {
		t.Fatalf("judges %v, want only %s", judges, jude.ID)
	}
}

// TestInvitationToADraft: an invited judge may accept while the hackathon
// is still a DRAFT (the token is what lets them reach it).
func TestInvitationToADraft(t *testing.T) {
	s := newServer(t)
	org, jude := s.actor(t, "org"), s.actor(t, "jude")
	id := s.hackathon(t, org.Token, nil)
	s.must(t, http.StatusCreated, "POST", path(id, "/invite-judges"), org.Token, map[string]any{"emails": []string{jude.Email}})
	token := s.invitation(t, jude.Email)
	refused(t, s.raw("POST", path(id, "/join"), jude.Token, map[string]any{"role": "builder", "invitation_token": token}),
		http.StatusNotFound, path(id, "/join"))
	s.must(t, http.StatusCreated, "POST", path(id, "/join"), jude.Token, map[string]any{"role": "judge", "invitation_token": token})
	s.setStatus(t, org.Token, id, "LIVE")
	judges := items(t, s.must(t, http.StatusOK, "GET", path(id, "/participants?role=judge"), jude.Token, nil))
	if len(judges) != 1 || judges[0]["user_id"] != jude.ID {
		t.Fatalf("judges %v", judges)
	}
}

package hackathon_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/strata-platform/strata/domain/hackathon"
	"github.com/strata-platform/strata/domain/kernel"
)

func joiner(user string) hackathon.Joiner { return hackathon.Joiner{UserID: user, Email: email(user)} }

func TestJoinRolesWhileLive(t *testing.T) {
	w := worldIn(t, live)
	evs, err := w.h.Join(joiner("u1"), "organizer", t0)
	refused(t, evs, err, kernel.KindInvalid)
	evs, err = w.h.Join(joiner("u1"), "", t0)
	refused(t, evs, err, kernel.KindInvalid)

	evs = w.must(w.h.Join(joiner("u1"), hackathon.RoleBuilder, t0))
	if ev, ok := evs[0].(*hackathon.ParticipantJoined); len(evs) != 1 || !ok || ev.UserID != "u1" || ev.Role != hackathon.RoleBuilder || ev.InvitationID != "" {
		t.Fatalf("events %#v", evs)
	}
	evs, err = w.h.Join(joiner("u1"), hackathon.RoleBuilder, t0)
	noop(t, evs, err) // holding the role already changes nothing
	w.must(w.h.Join(joiner("u1"), hackathon.RoleMentor, t0))
	if !w.h.HasRole("u1", hackathon.RoleBuilder) || !w.h.HasRole("u1", hackathon.RoleMentor) || w.h.Builders != 1 {
		t.Fatalf("participants %v, builders %d", w.h.Participants, w.h.Builders)
	}
}

func TestMaxParticipantsCountsBuildersOnly(t *testing.T) {
	w := newWorld(t, intp(2))
	w.join("j1", hackathon.RoleJudge) // staff, in DRAFT
	w.status(live)
	w.join("m1", hackathon.RoleMentor)
	w.join("b1", hackathon.RoleBuilder)
	w.join("b2", hackathon.RoleBuilder)
	if w.h.Builders != 2 {
		t.Fatalf("builders %d, want 2", w.h.Builders)
	}
	evs, err := w.h.Join(joiner("b3"), hackathon.RoleBuilder, t0)
	refused(t, evs, err, kernel.KindConflict)
	mentions(t, err, "max_participants is 2")
	evs, err = w.h.Join(joiner("m1"), hackathon.RoleBuilder, t0) // a mentor becoming a builder counts too
	refused(t, evs, err, kernel.KindConflict)
	evs, err = w.h.Join(joiner("b2"), hackathon.RoleBuilder, t0)
	noop(t, evs, err) // already a builder: not refused as "full"

	// Staff still join a full hackathon.
	w.join("m2", hackathon.RoleMentor)
	w.join("j2", hackathon.RoleJudge)
	w.join("b1", hackathon.RoleMentor)
	w.must(w.h.Join(joiner(org), hackathon.RoleJudge, t0))
	if w.h.Builders != 2 {
		t.Fatalf("builders %d after staff joined, want 2", w.h.Builders)
	}
}

func TestUpdateMayNotLowerMaxBelowBuilders(t *testing.T) {
	w := newWorld(t, intp(10))
	w.status(live)
	for _, b := range []string{"b1", "b2", "b3"} {
		w.join(b, hackathon.RoleBuilder)
	}
	w.join("m1", hackathon.RoleMentor)
	tests := []struct {
		max   int
		clear bool
		want  kernel.Kind
	}{
		{max: 2, want: kernel.KindConflict},
		{max: 1, want: kernel.KindConflict},
		{max: 0, want: kernel.KindInvalid},
		{max: 3},
		{max: 100},
		{clear: true},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.max, tt.clear), func(t *testing.T) {
			p := hackathon.DetailsPatch{MaxParticipants: intp(tt.max), ClearMaxParticipants: tt.clear}
			evs, err := w.h.Update(org, p, t0)
			if tt.want != kernel.KindInternal {
				refused(t, evs, err, tt.want)
				return
			}
			if err != nil || len(evs) != 1 {
				t.Fatalf("events %v, err %v", evs, err)
			}
			ev := evs[0].(*hackathon.HackathonUpdated)
			if !slices.Equal(ev.Changed, []string{"max_participants"}) {
				t.Fatalf("changed %v", ev.Changed)
			}
			if got := ev.Details.MaxParticipants; (got == nil) != tt.clear || (got != nil && *got != tt.max) {
				t.Fatalf("max_participants %v", got)
			}
		})
	}
}

func TestUpdateDetails(t *testing.T) {
	w := worldIn(t, live)
	name, online := "  Autumn Hack ", true
	evs, err := w.h.Update("stranger", hackathon.DetailsPatch{Name: &name}, t0)
	refused(t, evs, err, kernel.KindForbidden)
	end := t0 // before the start date
	evs, err = w.h.Update(org, hackathon.DetailsPatch{EndDate: &end}, t0)
	refused(t, evs, err, kernel.KindInvalid)
	same := "Spring Hack"
	evs, err = w.h.Update(org, hackathon.DetailsPatch{Name: &same}, t0)
	noop(t, evs, err)
	evs = w.must(w.h.Update(org, hackathon.DetailsPatch{Name: &name, IsOnline: &online}, t0))
	if ev := evs[0].(*hackathon.HackathonUpdated); !slices.Equal(ev.Changed, []string{"name", "is_online"}) {
		t.Fatalf("changed %v", ev.Changed)
	}
	if w.h.Details.Name != "Autumn Hack" || !w.h.Details.IsOnline || w.h.Details.Location != "Lyon" {
		t.Fatalf("details %+v", w.h.Details)
	}
}

func TestInviteJudges(t *testing.T) {
	invites := func(n int) []hackathon.Invite {
		out := make([]hackathon.Invite, n)
		for i := range out {
			out[i] = hackathon.Invite{InvitationID: fmt.Sprint("inv", i), Email: fmt.Sprintf("j%d@example.com", i), TokenHash: fmt.Sprint("tok", i)}
		}
		return out
	}
	w := worldIn(t, live)
	w.join("j1", hackathon.RoleJudge)
	w.join("b1", hackathon.RoleBuilder)
	for _, by := range []string{"j1", "b1", "stranger"} {
		evs, err := w.h.InviteJudges(by, invites(1), t0)
		refused(t, evs, err, kernel.KindForbidden)
	}
	for _, n := range []int{0, hackathon.MaxInvites + 1} {
		evs, err := w.h.InviteJudges(org, invites(n), t0)
		refused(t, evs, err, kernel.KindInvalid)
	}
	evs := w.must(w.h.InviteJudges(org, invites(hackathon.MaxInvites), t0))
	if len(evs) != hackathon.MaxInvites {
		t.Fatalf("%d events, want %d", len(evs), hackathon.MaxInvites)
	}
	ev := evs[7].(*hackathon.JudgeInvited)
	if ev.InvitationID != "inv7" || ev.Email != "j7@example.com" || ev.TokenHash != "tok7" || ev.By != org ||
		!ev.ExpiresAt.Equal(t0.Add(7*24*time.Hour)) || w.h.Invitations["tok7"] != *ev {
		t.Fatalf("invitation %+v", ev)
	}
}

func TestJoinAsJudgeNeedsAPendingInvitation(t *testing.T) {
	tests := []struct {
		name      string
		user, eml string
		tok       string
		after     time.Duration
		wantLive  kernel.Kind // KindInternal: accepted
		wantDraft kernel.Kind
	}{
		{name: "matching invitation", user: "j1", eml: email("j1"), tok: token("j1")},
		{name: "one instant before expiry", user: "j1", eml: email("j1"), tok: token("j1"), after: hackathon.InvitationTTL - time.Nanosecond},
		{"expired", "j1", email("j1"), token("j1"), hackathon.InvitationTTL, kernel.KindForbidden, kernel.KindNotFound},
		{"long expired", "j1", email("j1"), token("j1"), 30 * 24 * time.Hour, kernel.KindForbidden, kernel.KindNotFound},
		{"another address", "j1", "other@example.com", token("j1"), 0, kernel.KindForbidden, kernel.KindNotFound},
		{"unknown token", "j1", email("j1"), "forged", 0, kernel.KindForbidden, kernel.KindNotFound},
		{"no token", "j1", email("j1"), "", 0, kernel.KindForbidden, kernel.KindNotFound},
		{"someone else's invitation", "j2", email("j2"), token("j1"), 0, kernel.KindForbidden, kernel.KindNotFound},
		{name: "organiser needs none", user: org, eml: email(org)},
	}
	for _, tt := range tests {
		for _, status := range []string{live, draft} {
			t.Run(status+"/"+tt.name, func(t *testing.T) {
				w := worldIn(t, status)
				w.invite("j1")
				want := map[string]kernel.Kind{live: tt.wantLive, draft: tt.wantDraft}[status]
				evs, err := w.h.Join(hackathon.Joiner{UserID: tt.user, Email: tt.eml, TokenHash: tt.tok}, hackathon.RoleJudge, t0.Add(tt.after))
				if want != kernel.KindInternal {
					refused(t, evs, err, want)
					return
				}
				w.must(evs, err)
				wantInv := map[bool]string{true: "", false: "inv-j1"}[tt.user == org]
				if ev := evs[0].(*hackathon.ParticipantJoined); ev.InvitationID != wantInv || !w.h.HasRole(tt.user, hackathon.RoleJudge) {
					t.Fatalf("joined %+v", ev)
				}
			})
		}
	}
}

func TestJudgeInvitationIsSingleUse(t *testing.T) {
	w := worldIn(t, live)
	w.join("j1", hackathon.RoleJudge)
	if !w.h.Accepted["inv-j1"] {
		t.Fatal("invitation not marked as used")
	}
	same := hackathon.Joiner{UserID: "j1", Email: email("j1"), TokenHash: token("j1")}
	evs, err := w.h.Join(same, hackathon.RoleJudge, t0)
	noop(t, evs, err) // the judge already holds the role
	second := hackathon.Joiner{UserID: "j1-other-account", Email: email("j1"), TokenHash: token("j1")}
	evs, err = w.h.Join(second, hackathon.RoleJudge, t0)
	refused(t, evs, err, kernel.KindForbidden)
}

func TestOrganisers(t *testing.T) {
	w := worldIn(t, live)
	evs, err := w.h.AddOrganizer("stranger", "co", t0)
	refused(t, evs, err, kernel.KindForbidden)
	w.must(w.h.AddOrganizer(org, "co", t0))
	evs, err = w.h.AddOrganizer("co", "co", t0)
	noop(t, evs, err)
	evs, err = w.h.RemoveOrganizer("co", org, t0)
	refused(t, evs, err, kernel.KindConflict) // the creator stays
	evs, err = w.h.RemoveOrganizer(org, "nobody", t0)
	refused(t, evs, err, kernel.KindNotFound)
	evs, err = w.h.RemoveOrganizer("stranger", "co", t0)
	refused(t, evs, err, kernel.KindForbidden)
	w.must(w.h.RemoveOrganizer(org, "co", t0))
	evs, err = w.h.SetStatus("co", completed, t0)
	refused(t, evs, err, kernel.KindForbidden)
}

package hackathon

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/strata-platform/strata/commands/mail"
	"github.com/strata-platform/strata/domain/hackathon"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/folds"
)

// invitationPrefix marks judge invitation tokens.
const invitationPrefix = "hjinv_"

// TokenHash is the SHA-256 (hex) of an invitation token, as recorded.
func TokenHash(token string) string {
	token = strings.TrimSpace(token)
	if token == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

func newToken() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // crypto/rand never fails on Linux
	return invitationPrefix + base64.RawURLEncoding.EncodeToString(b)
}

// Invitation is a judge invitation as the organiser sees it (never the
// token, which only the invitee's mailbox has).
type Invitation struct {
	ID    string `json:"invitation_id"`
	Email string `json:"email"`
}

// InviteJudges invites addresses to judge hackathon id: each gets a
// single-use token valid for hackathon.InvitationTTL, recorded by its hash
// and mailed as a link. Duplicate addresses are invited once.
func (s *Service) InviteJudges(ctx context.Context, id, by string, emails []string) ([]Invitation, error) {
	var invites []hackathon.Invite
	tokens := map[string]string{}
	for i, raw := range emails {
		email, err := hackathon.NormalizeEmail("emails["+strconv.Itoa(i)+"]", raw)
		if err != nil {
			return nil, err
		}
		if _, dup := tokens[email]; dup {
			continue
		}
		tok := newToken()
		tokens[email] = tok
		invites = append(invites, hackathon.Invite{InvitationID: NewID(), Email: email, TokenHash: TokenHash(tok)})
	}
	var name string
	_, err := s.Do(ctx, id, by, false, func(h *hackathon.Hackathon) ([]kernel.Event, error) {
		name = h.Details.Name
		return h.InviteJudges(by, invites, s.Now())
	})
	if err != nil {
		return nil, err
	}
	out := make([]Invitation, len(invites))
	var failed []string
	for i, inv := range invites {
		out[i] = Invitation{ID: inv.InvitationID, Email: inv.Email}
		if err := s.mailInvitation(ctx, id, name, inv.Email, tokens[inv.Email]); err != nil {
			s.log.Warn("judge invitation not mailed", "hackathon", id, "invitation", inv.InvitationID, "err", err)
			failed = append(failed, inv.Email)
		}
	}
	if len(failed) > 0 {
		return out, kernel.Unavailable("the invitations are recorded but the mail to "+strings.Join(failed, ", ")+" could not be sent; invite those addresses again", nil)
	}
	return out, nil
}

func (s *Service) mailInvitation(ctx context.Context, id, name, email, token string) error {
	if s.cfg.Mailer == nil {
		return fmt.Errorf("no mailer configured")
	}
	link := strings.TrimRight(s.cfg.BaseURL, "/") + "/api/v1/hackathons/" + id + "/invitations/" + url.PathEscape(token)
	return s.cfg.Mailer.Send(ctx, mail.Message{To: email, Subject: "You are invited to judge " + name,
		Text: fmt.Sprintf("You are invited to judge the hackathon %q on Strata.\n\n"+
			"Sign in (or register) with this address, then accept within 7 days by joining as judge:\n"+
			"  POST %s/api/v1/hackathons/%s/join {\"role\": \"judge\", \"invitation_token\": \"%s\"}\n\n"+
			"Your invitation link (it shows the hackathon and how to accept): %s\n\n"+
			"The token works once and only for this address. If you do not want to judge, ignore this message.\n",
			name, strings.TrimRight(s.cfg.BaseURL, "/"), id, token, link)})
}

// Join gives the caller a role in hackathon id (a judge with the token of
// an invitation mailed to their address).
func (s *Service) Join(ctx context.Context, id, user, email, role, token string) (bool, error) {
	j := hackathon.Joiner{UserID: user, Email: strings.ToLower(strings.TrimSpace(email)), TokenHash: TokenHash(token)}
	app, err := s.Do(ctx, id, user, true, func(h *hackathon.Hackathon) ([]kernel.Event, error) {
		return h.Join(j, role, s.Now())
	})
	return app.ToVersion > 0, err
}

// Participant runs read on the caught-up fold of hackathon id for user, who
// may see it or holds a role in it: a judge who joined a DRAFT by
// invitation holds one without seeing the hackathon until it is LIVE.
// Anyone else is not found.
func (s *Service) Participant(ctx context.Context, id, user string, read func(h *hackathon.Hackathon) error) error {
	return s.locked(ctx, id, func(e *folds.Entry[hackathon.Hackathon]) error {
		if !e.State.VisibleTo(user) && len(e.State.Participants[user]) == 0 {
			return hackathon.NotFound(id)
		}
		return read(&e.State)
	})
}

// InvitationFor describes the invitation behind token for the hackathon
// (the mailed link): the hackathon's name and status, the invited address
// and whether it is still pending. An unknown token is not found.
func (s *Service) InvitationFor(ctx context.Context, id, token string) (map[string]any, error) {
	hash := TokenHash(token)
	var out map[string]any
	err := s.locked(ctx, id, func(e *folds.Entry[hackathon.Hackathon]) error {
		inv, ok := e.State.Invitations[hash]
		if !e.State.Exists() || !ok || hash == "" {
			return kernel.NotFound("invitation not found for this hackathon")
		}
		now := s.Now()
		state := "pending"
		switch {
		case e.State.Accepted[inv.InvitationID]:
			state = "accepted"
		case !now.Before(inv.ExpiresAt):
			state = "expired"
		}
		out = map[string]any{"invitation_id": inv.InvitationID, "hackathon_id": id, "hackathon_name": e.State.Details.Name,
			"hackathon_status": e.State.Status, "email": inv.Email, "expires_at": inv.ExpiresAt, "status": state,
			"accept": map[string]any{"method": "POST", "path": "/api/v1/hackathons/" + id + "/join",
				"body": map[string]string{"role": hackathon.RoleJudge, "invitation_token": token}}}
		return nil
	})
	return out, err
}

// ScoreHistory returns every revision of judge's score of a submission,
// oldest first, from the hackathon's stream (the fold keeps the latest
// only). The caller checks who may read it.
func (s *Service) ScoreHistory(ctx context.Context, id, submission, judge string) ([]hackathon.ScoreRecorded, error) {
	var out []hackathon.ScoreRecorded
	err := s.store.ReadAll(ctx, eventstore.Filter{StreamID: id, Types: []string{(hackathon.ScoreRecorded{}).EventType()}},
		func(env eventstore.Envelope) error {
			if ev, ok := env.Event.(*hackathon.ScoreRecorded); ok && ev.SubmissionID == submission && ev.JudgeID == judge {
				out = append(out, *ev)
			}
			return nil
		})
	return out, err
}

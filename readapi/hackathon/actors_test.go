package hackathon_test

import (
	"context"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/strata-platform/strata/commands/mail"
)

// actor is a registered platform user: their bearer JWT and user id.
type actor struct {
	Email, Token, ID string
}

// actor registers a user named name (the address name@hackathon.test).
func (s *server) actor(t *testing.T, name string) actor {
	t.Helper()
	email := name + "@hackathon.test"
	tok, id := s.user(t, email)
	return actor{Email: email, Token: tok, ID: id}
}

// path is the hackathon's path with rest appended.
func path(id, rest string) string { return base + "/" + id + rest }

// judge registers name, has org invite them to judge hackathon id and joins
// them as judge with the mailed token.
func (s *server) judge(t *testing.T, org actor, id, name string) actor {
	t.Helper()
	j := s.actor(t, name)
	s.must(t, http.StatusCreated, "POST", path(id, "/invite-judges"), org.Token, map[string]any{"emails": []string{j.Email}})
	s.must(t, http.StatusCreated, "POST", path(id, "/join"), j.Token,
		map[string]any{"role": "judge", "invitation_token": s.invitation(t, j.Email)})
	return j
}

// builder registers name and joins them to the LIVE hackathon id as builder.
func (s *server) builder(t *testing.T, id, name string) actor {
	t.Helper()
	b := s.actor(t, name)
	s.must(t, http.StatusCreated, "POST", path(id, "/join"), b.Token, map[string]any{"role": "builder"})
	return b
}

// team has builder b create a team called name; it returns the team id.
func (s *server) team(t *testing.T, id string, b actor, name string) string {
	t.Helper()
	return s.must(t, http.StatusCreated, "POST", path(id, "/teams"), b.Token, map[string]any{"name": name})["id"].(string)
}

// submit has b submit project for team (trackID "" for none); it returns
// the submission id.
func (s *server) submit(t *testing.T, id string, b actor, team, project, trackID string) string {
	t.Helper()
	body := map[string]any{"team_id": team, "project_name": project}
	if trackID != "" {
		body["track_id"] = trackID
	}
	return s.must(t, http.StatusCreated, "POST", path(id, "/submissions"), b.Token, body)["id"].(string)
}

// entry is a builder's team with its submission.
type entry struct {
	Builder    actor
	Team       string
	Submission string
}

// entry joins a builder called name, who creates a team and submits a
// project in trackID ("" for none).
func (s *server) entry(t *testing.T, id, name, trackID string) entry {
	t.Helper()
	b := s.builder(t, id, name)
	team := s.team(t, id, b, "Team "+name)
	return entry{Builder: b, Team: team, Submission: s.submit(t, id, b, team, "Project "+name, trackID)}
}

// rubric is the tests' rubric: impact (weight 2) and polish (weight 1),
// each scored 0 to 5, so a total is 2 × impact + polish (0 to 15).
var rubric = map[string]any{"name": "Main", "criteria": []map[string]any{
	{"key": "impact", "name": "Impact", "weight": 2, "min": 0, "max": 5},
	{"key": "polish", "name": "Polish", "weight": 1, "min": 0, "max": 5},
}}

// addRubric creates the tests' rubric as org (the first rubric is active)
// and returns its id.
func (s *server) addRubric(t *testing.T, org actor, id string) string {
	t.Helper()
	return s.must(t, http.StatusCreated, "POST", path(id, "/rubrics"), org.Token, rubric)["id"].(string)
}

// scoreBody is a score of the tests' rubric with its weighted total.
func scoreBody(submission, judge string, impact, polish float64) map[string]any {
	return map[string]any{"submission_id": submission, "judge_id": judge,
		"scores": map[string]any{"impact": impact, "polish": polish}, "total_score": 2*impact + polish}
}

// score records a score as by for judge (201 or, unchanged, 200).
func (s *server) score(t *testing.T, id string, by actor, judge, submission string, impact, polish float64) map[string]any {
	t.Helper()
	r := s.raw("POST", path(id, "/judging/scores"), by.Token, scoreBody(submission, judge, impact, polish))
	if r.Status != http.StatusCreated && r.Status != http.StatusOK {
		t.Fatalf("score %s by %s: status %d: %s", submission, judge, r.Status, r.Raw)
	}
	return r.Body
}

// items returns the items of a list answer.
func items(t *testing.T, body map[string]any) []map[string]any {
	t.Helper()
	raw, ok := body["items"].([]any)
	if !ok {
		t.Fatalf("no items in %v", body)
	}
	out := make([]map[string]any, len(raw))
	for i, x := range raw {
		out[i] = x.(map[string]any)
	}
	return out
}

// mailbox is a mail.Sender that keeps every message.
type mailbox struct {
	mu   sync.Mutex
	sent []mail.Message
}

func (m *mailbox) Send(_ context.Context, msg mail.Message) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sent = append(m.sent, msg)
	return nil
}

// to returns the messages sent to address.
func (m *mailbox) to(address string) []mail.Message {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []mail.Message
	for _, msg := range m.sent {
		if strings.EqualFold(msg.To, address) {
			out = append(out, msg)
		}
	}
	return out
}

var invitationToken = regexp.MustCompile(`hjinv_[A-Za-z0-9_-]+`)

// invitation returns the token of the last judge invitation mailed to
// address.
func (s *server) invitation(t *testing.T, address string) string {
	t.Helper()
	msgs := s.Mail.to(address)
	if len(msgs) == 0 {
		t.Fatalf("no mail to %s", address)
	}
	tok := invitationToken.FindString(msgs[len(msgs)-1].Text)
	if tok == "" {
		t.Fatalf("no invitation token in the mail to %s: %s", address, msgs[len(msgs)-1].Text)
	}
	return tok
}

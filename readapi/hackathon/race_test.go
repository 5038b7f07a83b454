package hackathon_test

import (
	"fmt"
	"net/http"
	"sync"
	"testing"
)

// race sends n requests at once (released together) and returns their
// statuses and bodies in order; req(i) gives the surface URL, method,
// path, token and body of request i.
func (s *server) race(n int, req func(i int) (url, method, path, token string, body any)) []reply {
	out := make([]reply, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			url, method, p, token, body := req(i)
			<-start
			out[i] = s.call(url, method, p, body, bearer(token))
		}()
	}
	close(start)
	wg.Wait()
	return out
}

// tally counts the statuses of replies and fails the test on any status
// outside want.
func tally(t *testing.T, rs []reply, want ...int) map[int]int {
	t.Helper()
	n := map[int]int{}
	for _, r := range rs {
		n[r.Status]++
		ok := false
		for _, w := range want {
			ok = ok || r.Status == w
		}
		if !ok {
			t.Errorf("unexpected status %d: %s", r.Status, r.Raw)
		}
	}
	return n
}

// TestMaxParticipantsRace: 40 users join a hackathon of at most 5 builders
// at once: exactly 5 are in (201), 35 are refused (409), on one process.
func TestMaxParticipantsRace(t *testing.T) {
	s := newServer(t)
	maxParticipantsRace(t, s, []string{s.URL})
}

// TestMaxParticipantsRaceTwoProcesses: the same race through two surfaces,
// each with its own command service, fold cache and event store over one
// database (two processes' worth): the optimistic version check still lets
// exactly 5 in.
func TestMaxParticipantsRaceTwoProcesses(t *testing.T) {
	s := newServer(t)
	maxParticipantsRace(t, s, []string{s.URL, s.second()})
}

func maxParticipantsRace(t *testing.T, s *server, urls []string) {
	const max, users = 5, 40
	org := s.actor(t, "org")
	id := s.liveHackathon(t, org.Token, map[string]any{"max_participants": max})
	joiners := make([]actor, users)
	for i := range joiners {
		joiners[i] = s.actor(t, fmt.Sprintf("builder%02d", i))
	}
	rs := s.race(users, func(i int) (string, string, string, string, any) {
		return urls[i%len(urls)], "POST", path(id, "/join"), joiners[i].Token, map[string]any{"role": "builder"}
	})
	n := tally(t, rs, http.StatusCreated, http.StatusConflict)
	if n[http.StatusCreated] != max || n[http.StatusConflict] != users-max {
		t.Fatalf("statuses %v, want %d × 201 and %d × 409", n, max, users-max)
	}
	for _, r := range rs {
		if r.Status == http.StatusConflict {
			refused(t, r, http.StatusConflict, path(id, "/join"), "full")
		}
	}
	for _, url := range urls {
		r := s.call(url, "GET", path(id, "/participants?role=builder&limit=100"), nil, bearer(org.Token))
		if r.Status != http.StatusOK || r.Body["total"] != float64(max) || len(items(t, r.Body)) != max {
			t.Fatalf("builders at %s: %d %s", url, r.Status, r.Raw)
		}
	}
	// The read model counted the same builders.
	for _, h := range items(t, s.must(t, http.StatusOK, "GET", base, org.Token, nil)) {
		if h["id"] == id && h["participant_count"] != float64(max) {
			t.Fatalf("listed participant_count %v, want %d", h["participant_count"], max)
		}
	}
}

// TestTeamMembershipRace: a builder added to 10 teams at once ends in
// exactly one; a builder creating 10 teams at once creates one. Both run
// through two surfaces over one database.
func TestTeamMembershipRace(t *testing.T) {
	s := newServer(t)
	urls := []string{s.URL, s.second()}
	org := s.actor(t, "org")
	id := s.liveHackathon(t, org.Token, nil)
	const teams = 10

	b := s.builder(t, id, "wanderer")
	ids := make([]string, teams)
	for i := range ids {
		ids[i] = s.team(t, id, s.builder(t, id, fmt.Sprintf("captain%d", i)), fmt.Sprintf("Team %d", i))
	}
	rs := s.race(teams, func(i int) (string, string, string, string, any) {
		return urls[i%2], "POST", path(id, "/teams/"+ids[i]+"/members"), b.Token, map[string]any{"user_id": b.ID}
	})
	n := tally(t, rs, http.StatusCreated, http.StatusConflict)
	if n[http.StatusCreated] != 1 || n[http.StatusConflict] != teams-1 {
		t.Fatalf("adds to %d teams at once: %v, want one 201", teams, n)
	}
	if in := teamsWith(t, s, org, id, b.ID); len(in) != 1 {
		t.Fatalf("builder is in %d teams: %v", len(in), in)
	}

	c := s.builder(t, id, "founder")
	rs = s.race(teams, func(i int) (string, string, string, string, any) {
		return urls[i%2], "POST", path(id, "/teams"), c.Token, map[string]any{"name": fmt.Sprintf("Founders %d", i)}
	})
	n = tally(t, rs, http.StatusCreated, http.StatusConflict)
	if n[http.StatusCreated] != 1 || n[http.StatusConflict] != teams-1 {
		t.Fatalf("%d team creations at once: %v, want one 201", teams, n)
	}
	if in := teamsWith(t, s, org, id, c.ID); len(in) != 1 {
		t.Fatalf("founder is in %d teams: %v", len(in), in)
	}
	all := s.must(t, http.StatusOK, "GET", path(id, "/teams?limit=100"), org.Token, nil)
	if all["total"] != float64(teams+1) {
		t.Fatalf("%v teams, want %d", all["total"], teams+1)
	}
}

// teamsWith lists the ids of the teams user is a member of.
func teamsWith(t *testing.T, s *server, org actor, id, user string) []string {
	t.Helper()
	var out []string
	for _, tm := range items(t, s.must(t, http.StatusOK, "GET", path(id, "/teams?limit=100"), org.Token, nil)) {
		for _, m := range tm["members"].([]any) {
			if m.(map[string]any)["user_id"] == user {
				out = append(out, tm["id"].(string))
			}
		}
	}
	p := s.must(t, http.StatusOK, "GET", path(id, "/participants?role=builder&limit=100"), org.Token, nil)
	for _, x := range items(t, p) {
		if x["user_id"] == user && (len(out) != 1 || x["team_id"] != out[0]) {
			t.Fatalf("participant %s has team_id %v, teams list says %v", user, x["team_id"], out)
		}
	}
	return out
}

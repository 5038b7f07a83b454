package hackathonbench

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/strata-platform/strata/domain/hackathon"
	"github.com/strata-platform/strata/eventstore/storebench"
)

// Rubric of the bench: four criteria weighted 3, 2, 1, 1, scored 1 to 5.
var criteria = []struct {
	key    string
	weight int
}{{"impact", 3}, {"execution", 2}, {"design", 1}, {"pitch", 1}}

// accounts registers the organiser and the judges through the identity
// service (argon2id hashing, as a sign-up), 4 at a time, each with an API
// key; the rate tells what registering the builders too would cost.
func (b *bench) accounts(ctx context.Context) ([]storebench.Figure, error) {
	o := b.o
	n := 1 + o.Judges
	o.Logf("registering %d platform accounts (organiser and judges) through the identity service ...", n)
	users := make([]User, n)
	errs := make([]error, n)
	sem := make(chan struct{}, 4)
	var wg sync.WaitGroup
	start := time.Now()
	for i := range n {
		email, name := fmt.Sprintf("hackathon-bench-judge-%03d@bench.invalid", i), fmt.Sprintf("Judge %d", i)
		if i == 0 {
			email, name = "hackathon-bench-organiser@bench.invalid", "Organiser"
		}
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			users[i], errs[i] = b.srv.Register(ctx, email, name)
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	b.organiser, b.judges = users[0], users[1:]
	rate := float64(n) / elapsed.Seconds()
	o.Logf("  %d accounts in %s (%.1f/s); %d builder accounts would take about %s more: the builders are synthetic ids",
		n, elapsed.Round(time.Millisecond), rate, o.Submissions, (time.Duration(float64(o.Submissions)/rate) * time.Second).Round(time.Second))
	return []storebench.Figure{{Name: fmt.Sprintf("setup: %d accounts registered (identity service, argon2id), 4 at a time", n),
		Unit: "acct/s", Ours: rate, Samples: n}}, nil
}

// idOf is a created resource's id in an answer.
type idOf struct {
	ID string `json:"id"`
}

// setup creates the hackathon over HTTP as the organiser (details, 4
// tracks, the rubric, LIVE), invites the judges and has each of them join
// over HTTP with the token mailed to them.
func (b *bench) setup(ctx context.Context) ([]storebench.Figure, error) {
	o := b.o
	o.Logf("creating the hackathon, its tracks and rubric over HTTP, inviting %d judges ...", o.Judges)
	now := time.Now().UTC()
	var h idOf
	if err := b.callJSON(ctx, b.organiser, http.MethodPost, base, map[string]any{"name": "Strata bench hackathon",
		"description": "strata bench hackathon", "start_date": now.Format(time.RFC3339), "is_online": true,
		"end_date": now.Add(48 * time.Hour).Format(time.RFC3339)}, &h, http.StatusCreated); err != nil {
		return nil, err
	}
	b.hid = h.ID
	hp := base + "/" + b.hid
	for i, color := range []string{"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728"} {
		var t idOf
		if err := b.callJSON(ctx, b.organiser, http.MethodPost, hp+"/tracks", map[string]any{"name": fmt.Sprintf("Track %d", i+1),
			"color": color}, &t, http.StatusCreated); err != nil {
			return nil, err
		}
		b.tracks = append(b.tracks, t.ID)
	}
	var crit []map[string]any
	for _, c := range criteria {
		crit = append(crit, map[string]any{"key": c.key, "weight": c.weight, "min": 1, "max": 5})
	}
	if _, err := b.call(ctx, b.organiser, http.MethodPost, hp+"/rubrics", map[string]any{"name": "Bench rubric", "criteria": crit},
		http.StatusCreated); err != nil {
		return nil, err
	}
	if _, err := b.call(ctx, b.organiser, http.MethodPost, hp+"/status", map[string]string{"status": hackathon.StatusLive},
		http.StatusOK); err != nil {
		return nil, err
	}
	for i := 0; i < len(b.judges); i += hackathon.MaxInvites {
		var emails []string
		for _, j := range b.judges[i:min(len(b.judges), i+hackathon.MaxInvites)] {
			emails = append(emails, j.Email)
		}
		if _, err := b.call(ctx, b.organiser, http.MethodPost, hp+"/invite-judges", map[string]any{"emails": emails},
			http.StatusCreated); err != nil {
			return nil, err
		}
	}
	tokens, err := invitationTokens(b.srv.MailDir, b.hid)
	if err != nil {
		return nil, err
	}
	errs := make([]error, len(b.judges))
	sem := make(chan struct{}, 4)
	var wg sync.WaitGroup
	for i, j := range b.judges {
		tok, ok := tokens[j.Email]
		if !ok {
			return nil, fmt.Errorf("hackathonbench: no invitation mailed to %s in %s", j.Email, b.srv.MailDir)
		}
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			_, errs[i] = b.call(ctx, j, http.MethodPost, hp+"/join", map[string]string{"role": hackathon.RoleJudge,
				"invitation_token": tok}, http.StatusCreated)
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	o.Logf("  hackathon %s LIVE, %d tracks, rubric weights 3,2,1,1 (1-5), %d judges joined with their invitations", b.hid,
		len(b.tracks), len(b.judges))
	return nil, nil
}

package network_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/strata-platform/strata/commands/connections"
	"github.com/strata-platform/strata/commands/content/platforms"
	"github.com/strata-platform/strata/commands/content/platforms/network"
	"github.com/strata-platform/strata/commands/content/platforms/platformtest"
)

func setup(t *testing.T) (*network.Adapter, *platformtest.Network) {
	t.Helper()
	fakes := platformtest.StartAll(t)
	return network.New(fakes.Settings(platforms.ProfessionalNetwork), &http.Client{Timeout: 5 * time.Second}), fakes.Network
}

func wantClass(t *testing.T, err error, want connections.Class) *connections.CallError {
	t.Helper()
	var ce *connections.CallError
	if !errors.As(err, &ce) || ce.Class != want {
		t.Fatalf("error = %v, want class %s", err, want)
	}
	return ce
}

func media(kind string, b []byte) platforms.Media {
	return platforms.Media{Kind: kind, Size: int64(len(b)), ContentType: kind + "/x",
		Open: func(context.Context) (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b)), nil }}
}

func TestAuthCodeURL(t *testing.T) {
	a := network.New(connections.Settings{ClientID: "cid"}, http.DefaultClient)
	u, _ := url.Parse(a.AuthCodeURL("st", "https://strata.example/cb", "x"))
	want := map[string]string{"response_type": "code", "client_id": "cid", "redirect_uri": "https://strata.example/cb", "state": "st",
		"scope": "openid profile email w_member_social"}
	for k, v := range want {
		if u.Query().Get(k) != v {
			t.Errorf("%s = %q, want %q", k, u.Query().Get(k), v)
		}
	}
	if a.PKCE() || u.Query().Has("code_challenge") || !strings.HasPrefix(u.String(), network.DefaultAuthURL+"?") {
		t.Errorf("url %s", u)
	}
}

func TestEscape(t *testing.T) {
	in := `Hi @you (see [this]) #tag a_b*c~d <x> {y} | \ done`
	want := `Hi \@you \(see \[this\]\) \#tag a\_b\*c\~d \<x\> \{y\} \| \\ done`
	if got := network.Escape(in); got != want {
		t.Errorf("Escape = %s, want %s", got, want)
	}
}

func TestOAuth(t *testing.T) {
	a, fake := setup(t)
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	a.Now = func() time.Time { return now }
	ctx := context.Background()
	const redirect = "https://strata.example/cb"
	wantClass(t, func() error { _, err := a.Exchange(ctx, "nope", redirect, ""); return err }(), connections.Unauthorized)
	tok, err := a.Exchange(ctx, fake.Authorize(fake.ClientID(), redirect, "", "st"), redirect, "")
	if err != nil || !tok.Expiry.Equal(now.Add(60*24*time.Hour)) || !tok.RefreshExpiry.Equal(now.Add(365*24*time.Hour)) {
		t.Fatalf("tokens %+v, %v", tok, err)
	}
	id, err := a.Identify(ctx, tok)
	acct := fake.Account()
	if err != nil || id.ID != acct.ID || id.Handle != acct.Email || id.Extra["person_urn"] != "urn:li:person:"+acct.ID {
		t.Fatalf("identity %+v, %v", id, err)
	}
	nt, err := a.Refresh(ctx, tok)
	if err != nil || nt.AccessToken == tok.AccessToken {
		t.Fatalf("refresh %+v %v", nt, err)
	}
	wantClass(t, func() error { _, err := a.Refresh(ctx, tok); return err }(), connections.Unauthorized)
	wantClass(t, func() error { _, err := a.Refresh(ctx, connections.Tokens{AccessToken: "a"}); return err }(), connections.Unauthorized)
	if err := a.Revoke(ctx, nt); err != nil || !fake.Revoked(nt.AccessToken) {
		t.Fatalf("revoke %v", err)
	}
	wantClass(t, func() error { _, err := a.Identify(ctx, nt); return err }(), connections.Unauthorized)
}

func TestPublish(t *testing.T) {
	img := bytes.Repeat([]byte("i"), 1000)
	vid := bytes.Repeat([]byte("v"), 9<<20) // three parts of at most 4 MiB
	cases := []struct {
		name  string
		post  platforms.Post
		media int
		class connections.Class
	}{
		{name: "text", post: platforms.Post{Text: "Launch day (finally) #build @team_x"}},
		{name: "image", post: platforms.Post{Text: "one image", Media: []platforms.Media{media("image", img)}}, media: 1},
		{name: "images", post: platforms.Post{Text: "two images", Media: []platforms.Media{media("image", img), media("image", img)}}, media: 2},
		{name: "video", post: platforms.Post{Text: "a video", Title: "Demo", Media: []platforms.Media{media("video", vid)}}, media: 1},
		{name: "video and image", post: platforms.Post{Text: "mixed", Media: []platforms.Media{media("video", vid), media("image", img)}},
			class: connections.Refused},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a, fake := setup(t)
			acct := fake.Account()
			id := connections.Identity{ID: acct.ID, Extra: map[string]string{"person_urn": "urn:li:person:" + acct.ID}}
			pub, err := a.Publish(context.Background(), fake.Mint(acct.ID), id, c.post)
			if c.class != "" {
				wantClass(t, err, c.class)
				if fake.PostCount() != 0 || len(fake.Log()) != 0 {
					t.Fatal("a request was sent")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			posts := fake.Posts()
			if len(posts) != 1 || "urn:li:share:"+posts[0].ID != pub.ID || posts[0].Text != c.post.Text || len(posts[0].Media) != c.media ||
				posts[0].Title != c.post.Title {
				t.Fatalf("published %+v; fake has %+v", pub, posts)
			}
			if pub.URL != "https://www.linkedin.com/feed/update/"+pub.ID+"/" {
				t.Errorf("url %s", pub.URL)
			}
		})
	}
}

func TestPublishFailures(t *testing.T) {
	cases := []struct {
		name    string
		failure *platformtest.Failure
		class   connections.Class
		reason  string
		posts   int
	}{
		{"unavailable", &platformtest.Failure{Match: "POST /rest/posts", Kind: platformtest.Transient}, connections.Transient, "", 0},
		{"throttled", &platformtest.Failure{Match: "POST /rest/posts", Kind: platformtest.RateLimit}, connections.Transient, "TOO_MANY_REQUESTS", 0},
		{"duplicate", &platformtest.Failure{Match: "POST /rest/posts", Kind: platformtest.Refuse, Reason: "DUPLICATE_POST"}, connections.Refused, "duplicate", 0},
		{"other refusal", &platformtest.Failure{Match: "POST /rest/posts", Kind: platformtest.Refuse, Reason: "CONTENT_TOO_LONG"}, connections.Refused, "CONTENT_TOO_LONG", 0},
		{"expired", &platformtest.Failure{Match: "POST /rest/posts", Kind: platformtest.Expired}, connections.Unauthorized, "EXPIRED_ACCESS_TOKEN", 0},
		{"dropped", &platformtest.Failure{Match: "POST /rest/posts", Kind: platformtest.Drop}, connections.Unconfirmed, "", 1},
		{"cut before acting", &platformtest.Failure{Match: "POST /rest/posts", Kind: platformtest.DropUnacted}, connections.Unconfirmed, "", 0},
		{"hung", &platformtest.Failure{Match: "POST /rest/posts", Kind: platformtest.Hang}, connections.Unconfirmed, "", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a, fake := setup(t)
			fake.Fail(*c.failure)
			acct := fake.Account()
			tok := fake.Mint(acct.ID)
			ctx, cancel := context.WithTimeout(context.Background(), 400*time.Millisecond)
			defer cancel()
			_, err := a.Publish(ctx, tok, connections.Identity{ID: acct.ID}, platforms.Post{Text: "hello"})
			if ce := wantClass(t, err, c.class); !strings.Contains(ce.Reason, c.reason) || strings.Contains(ce.Error(), tok.AccessToken) {
				t.Errorf("reason %q", ce.Reason)
			}
			if fake.PostCount() != c.posts || fake.Requests("POST /rest/posts") != 1 {
				t.Errorf("posts %d, requests %d", fake.PostCount(), fake.Requests("POST /rest/posts"))
			}
		})
	}
	t.Run("the platform's own duplicate check", func(t *testing.T) {
		a, fake := setup(t)
		acct := fake.Account()
		tok, id := fake.Mint(acct.ID), connections.Identity{ID: acct.ID}
		if _, err := a.Publish(context.Background(), tok, id, platforms.Post{Text: "same"}); err != nil {
			t.Fatal(err)
		}
		_, err := a.Publish(context.Background(), tok, id, platforms.Post{Text: "same"})
		if ce := wantClass(t, err, connections.Refused); ce.Reason != "duplicate" {
			t.Errorf("reason %q", ce.Reason)
		}
	})
}

func TestInsights(t *testing.T) {
	a, fake := setup(t)
	acct := fake.Account()
	d := time.Date(2026, 4, 30, 0, 0, 0, 0, time.UTC)
	n := func(v int64) *int64 { return &v }
	fake.SetInsights(acct.ID, d, platformtest.Numbers{Views: n(50), Likes: n(4), Comments: n(1), Shares: n(2), FollowersGained: n(9)})
	fake.SetInsights(acct.ID, d.AddDate(0, 0, 1), platformtest.Numbers{Views: n(20)})
	tok := fake.Mint(acct.ID)
	tok.Scope = "openid,profile,w_member_social,r_member_postAnalytics"
	days, err := a.Insights(context.Background(), tok, connections.Identity{ID: acct.ID}, d, d.AddDate(0, 0, 1))
	if err != nil || len(days) != 2 {
		t.Fatalf("%+v %v", days, err)
	}
	if *days[0].Views != 50 || *days[0].Likes != 4 || *days[0].Comments != 1 || *days[0].Shares != 2 || days[0].FollowersGained != nil {
		t.Errorf("day 0 %+v", days[0])
	}
	if *days[1].Views != 20 || days[1].Likes != nil || days[1].FollowersGained != nil {
		t.Errorf("day 1 %+v", days[1])
	}
	tok.Scope = "openid,profile,email,w_member_social"
	days, err = a.Insights(context.Background(), tok, connections.Identity{ID: acct.ID}, d, d)
	if err != nil || len(days) != 1 || days[0].Views != nil || fake.Requests("GET /rest/memberCreatorPostAnalytics") != 4 {
		t.Fatalf("without the permission: %+v %v (%d requests)", days, err, fake.Requests("GET /rest/memberCreatorPostAnalytics"))
	}
}

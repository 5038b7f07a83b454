package shortvideo_test

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
	"github.com/strata-platform/strata/commands/content/platforms/platformtest"
	"github.com/strata-platform/strata/commands/content/platforms/shortvideo"
)

func setup(t *testing.T, timeout time.Duration) (*shortvideo.Adapter, *platformtest.ShortVideo) {
	t.Helper()
	fakes := platformtest.StartAll(t)
	a := shortvideo.New(fakes.Settings(platforms.ShortVideo), &http.Client{Timeout: timeout})
	a.PollInterval = time.Millisecond
	return a, fakes.ShortVideo
}

func wantClass(t *testing.T, err error, want connections.Class) *connections.CallError {
	t.Helper()
	var ce *connections.CallError
	if !errors.As(err, &ce) || ce.Class != want {
		t.Fatalf("error = %v, want class %s", err, want)
	}
	return ce
}

func video(b []byte, sized bool) platforms.Media {
	m := platforms.Media{Kind: "video", ContentType: "video/mp4",
		Open: func(context.Context) (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b)), nil }}
	if sized {
		m.Size = int64(len(b))
	}
	return m
}

func TestAuthCodeURL(t *testing.T) {
	a := shortvideo.New(connections.Settings{ClientID: "ck"}, http.DefaultClient)
	u, _ := url.Parse(a.AuthCodeURL("st", "https://strata.example/cb", "chal"))
	want := map[string]string{"client_key": "ck", "response_type": "code", "scope": "user.info.basic,video.publish,video.list,user.info.stats",
		"redirect_uri": "https://strata.example/cb", "state": "st", "code_challenge": "chal", "code_challenge_method": "S256"}
	for k, v := range want {
		if u.Query().Get(k) != v {
			t.Errorf("%s = %q, want %q", k, u.Query().Get(k), v)
		}
	}
	if !strings.HasPrefix(u.String(), shortvideo.DefaultAuthURL+"?") || !a.PKCE() {
		t.Errorf("url %s", u)
	}
}

func TestOAuth(t *testing.T) {
	a, fake := setup(t, 5*time.Second)
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	a.Now = func() time.Time { return now }
	ctx := context.Background()
	const redirect, verifier = "https://strata.example/cb", "verifier-0123456789-0123456789-0123456789-0123"
	bad := fake.Authorize(fake.ClientID(), redirect, platformtest.Challenge(verifier), "st")
	wantClass(t, func() error { _, err := a.Exchange(ctx, bad, redirect, "wrong"); return err }(), connections.Unauthorized)

	tok, err := a.Exchange(ctx, fake.Authorize(fake.ClientID(), redirect, platformtest.Challenge(verifier), "st"), redirect, verifier)
	if err != nil {
		t.Fatal(err)
	}
	if !tok.Expiry.Equal(now.Add(24*time.Hour)) || !tok.RefreshExpiry.Equal(now.Add(365*24*time.Hour)) || tok.RefreshToken == "" {
		t.Fatalf("tokens %+v", tok)
	}
	id, err := a.Identify(ctx, tok)
	if err != nil || id.ID != fake.Account().ID || id.Handle != "@"+fake.Account().Handle || id.Extra["username"] == "" {
		t.Fatalf("identity %+v, %v", id, err)
	}
	nt, err := a.Refresh(ctx, tok)
	if err != nil || nt.AccessToken == tok.AccessToken || nt.RefreshToken == tok.RefreshToken {
		t.Fatalf("refresh %+v, %v", nt, err)
	}
	wantClass(t, func() error { _, err := a.Refresh(ctx, tok); return err }(), connections.Unauthorized) // rotated away
	wantClass(t, func() error { _, err := a.Refresh(ctx, connections.Tokens{AccessToken: "x"}); return err }(), connections.Unauthorized)
	if err := a.Revoke(ctx, nt); err != nil || !fake.Revoked(nt.AccessToken) {
		t.Fatalf("revoke: %v", err)
	}
	wantClass(t, func() error { _, err := a.Identify(ctx, nt); return err }(), connections.Unauthorized)
}

func TestPublish(t *testing.T) {
	clip := bytes.Repeat([]byte("v"), 3000)
	cases := []struct {
		name    string
		post    platforms.Post
		options []string
		polls   int
		fail    string
		class   connections.Class
		reason  string
	}{
		{name: "sized video", post: platforms.Post{Text: "clip #1", Media: []platforms.Media{video(clip, true)}}},
		{name: "unsized video", post: platforms.Post{Text: "clip #2", Media: []platforms.Media{video(clip, false)}}},
		{name: "private only, slow", post: platforms.Post{Text: "clip #3", Media: []platforms.Media{video(clip, true)}},
			options: []string{"SELF_ONLY"}, polls: 3},
		{name: "image", post: platforms.Post{Text: "pic", Media: []platforms.Media{{Kind: "image", URL: "https://x/i.jpg"}}},
			class: connections.Refused, reason: "one video"},
		{name: "failed processing", post: platforms.Post{Text: "clip", Media: []platforms.Media{video(clip, true)}},
			fail: "file_format_check_failed", class: connections.Refused, reason: "file_format_check_failed"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a, fake := setup(t, 5*time.Second)
			if c.options != nil {
				fake.SetPrivacyOptions(c.options...)
			}
			fake.SetProcessing(c.polls, c.fail)
			acct := fake.Account()
			pub, err := a.Publish(context.Background(), fake.Mint(acct.ID),
				connections.Identity{ID: acct.ID, Extra: map[string]string{"username": acct.Handle}}, c.post)
			if c.class != "" {
				if ce := wantClass(t, err, c.class); !strings.Contains(ce.Reason, c.reason) || fake.PostCount() != 0 {
					t.Fatalf("reason %q, posts %d", ce.Reason, fake.PostCount())
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			posts := fake.Posts()
			if len(posts) != 1 || posts[0].ID != pub.ID || posts[0].Text != c.post.Text || posts[0].Media[0] != "upload:3000" {
				t.Fatalf("published %+v; fake has %+v", pub, posts)
			}
			if pub.URL != "https://www.tiktok.com/@"+acct.Handle+"/video/"+pub.ID {
				t.Errorf("url %s", pub.URL)
			}
		})
	}
}

func TestPublishFailures(t *testing.T) {
	clip := bytes.Repeat([]byte("v"), 2048)
	cases := []struct {
		name    string
		failure platformtest.Failure
		timeout time.Duration
		class   connections.Class // "" : published after all
		reason  string
		posts   int
	}{
		{"transient init", platformtest.Failure{Match: "POST /v2/post/publish/video/init/", Kind: platformtest.Transient}, 0, connections.Transient, "", 0},
		{"rate limited", platformtest.Failure{Match: "POST /v2/post/publish/creator_info/", Kind: platformtest.RateLimit}, 0, connections.Transient, "rate_limit_exceeded", 0},
		{"spam risk", platformtest.Failure{Match: "POST /v2/post/publish/video/init/", Kind: platformtest.Refuse, Reason: "spam_risk_too_many_posts"}, 0, connections.Refused, "spam_risk_too_many_posts", 0},
		{"expired", platformtest.Failure{Match: "POST /v2/post/", Kind: platformtest.Expired}, 0, connections.Unauthorized, "access_token_invalid", 0},
		{"init dropped", platformtest.Failure{Match: "POST /v2/post/publish/video/init/", Kind: platformtest.Drop}, 0, connections.Transient, "nothing uploaded", 0},
		{"upload dropped after it completed", platformtest.Failure{Match: "PUT /upload/", Kind: platformtest.Drop}, 0, "", "", 1},
		{"upload hung, status says incomplete", platformtest.Failure{Match: "PUT /upload/", Kind: platformtest.Hang}, 300 * time.Millisecond, connections.Transient, "did not complete", 0},
		{"upload hung past the deadline", platformtest.Failure{Match: "PUT /upload/", Kind: platformtest.Hang}, 0, connections.Unconfirmed, "", 0},
		{"status dropped", platformtest.Failure{Match: "POST /v2/post/publish/status/", Kind: platformtest.Drop}, 0, "", "", 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			timeout := c.timeout
			if timeout == 0 {
				timeout = 5 * time.Second
			}
			a, fake := setup(t, timeout)
			fake.Fail(c.failure)
			acct := fake.Account()
			tok := fake.Mint(acct.ID)
			ctx, cancel := context.WithTimeout(context.Background(), 600*time.Millisecond)
			defer cancel()
			_, err := a.Publish(ctx, tok, connections.Identity{ID: acct.ID}, platforms.Post{Text: "clip", Media: []platforms.Media{video(clip, true)}})
			if c.class == "" {
				if err != nil {
					t.Fatal(err)
				}
			} else if ce := wantClass(t, err, c.class); !strings.Contains(ce.Reason, c.reason) || strings.Contains(ce.Error(), tok.AccessToken) {
				t.Errorf("reason = %q", ce.Reason)
			}
			if fake.PostCount() != c.posts {
				t.Errorf("posts = %d, want %d", fake.PostCount(), c.posts)
			}
			if n := fake.Requests("PUT /upload/"); n > 1 {
				t.Errorf("the video was sent %d times", n)
			}
		})
	}
}

func TestInsightsAreNil(t *testing.T) {
	a, fake := setup(t, time.Second)
	d := time.Date(2026, 2, 27, 15, 0, 0, 0, time.UTC)
	days, err := a.Insights(context.Background(), fake.Mint("x"), connections.Identity{ID: "x"}, d, d.AddDate(0, 0, 2))
	if err != nil || len(days) != 3 || !days[2].Date.Equal(time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)) {
		t.Fatalf("%+v %v", days, err)
	}
	for _, day := range days {
		if day.Views != nil || day.Likes != nil || day.Comments != nil || day.Shares != nil || day.FollowersGained != nil {
			t.Fatalf("a number where TikTok gives none: %+v", day)
		}
	}
}

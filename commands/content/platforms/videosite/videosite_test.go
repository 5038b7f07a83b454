package videosite_test

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
	"github.com/strata-platform/strata/commands/content/platforms/videosite"
)

func setup(t *testing.T, timeout time.Duration) (*videosite.Adapter, *platformtest.VideoSite) {
	t.Helper()
	fakes := platformtest.StartAll(t)
	return videosite.New(fakes.Settings(platforms.VideoSite), &http.Client{Timeout: timeout}), fakes.VideoSite
}

func wantClass(t *testing.T, err error, want connections.Class) *connections.CallError {
	t.Helper()
	var ce *connections.CallError
	if !errors.As(err, &ce) || ce.Class != want {
		t.Fatalf("error = %v, want class %s", err, want)
	}
	return ce
}

func clip(b []byte, sized bool) platforms.Media {
	m := platforms.Media{Kind: "video", ContentType: "video/mp4",
		Open: func(context.Context) (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b)), nil }}
	if sized {
		m.Size = int64(len(b))
	}
	return m
}

func TestAuthCodeURL(t *testing.T) {
	a := videosite.New(connections.Settings{ClientID: "cid"}, http.DefaultClient)
	if a.AnalyticsBase != videosite.DefaultAnalyticsBase {
		t.Errorf("analytics base %s", a.AnalyticsBase)
	}
	u, _ := url.Parse(a.AuthCodeURL("st", "https://strata.example/cb", "chal"))
	want := map[string]string{"client_id": "cid", "redirect_uri": "https://strata.example/cb", "response_type": "code", "state": "st",
		"access_type": "offline", "prompt": "consent", "include_granted_scopes": "true", "code_challenge": "chal",
		"code_challenge_method": "S256", "scope": "https://www.googleapis.com/auth/youtube.upload https://www.googleapis.com/auth/youtube.readonly https://www.googleapis.com/auth/yt-analytics.readonly"}
	for k, v := range want {
		if u.Query().Get(k) != v {
			t.Errorf("%s = %q, want %q", k, u.Query().Get(k), v)
		}
	}
	if !a.PKCE() || !strings.HasPrefix(u.String(), videosite.DefaultAuthURL+"?") {
		t.Errorf("url %s", u)
	}
}

func TestTitle(t *testing.T) {
	long := strings.Repeat("é", 120)
	cases := []struct {
		post platforms.Post
		want string
	}{
		{platforms.Post{Title: " Given ", Text: "text"}, "Given"},
		{platforms.Post{Text: "  First line  \nsecond"}, "First line"},
		{platforms.Post{Text: long}, strings.Repeat("é", 100)},
		{platforms.Post{}, ""},
	}
	for _, c := range cases {
		if got := videosite.Title(c.post); got != c.want {
			t.Errorf("Title(%+v) = %q, want %q", c.post, got, c.want)
		}
	}
}

func TestOAuth(t *testing.T) {
	a, fake := setup(t, 5*time.Second)
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	a.Now = func() time.Time { return now }
	ctx := context.Background()
	const redirect, verifier = "https://strata.example/cb", "a-verifier-that-is-long-enough-0123456789-abcdefghij"
	code := fake.Authorize(fake.ClientID(), redirect, platformtest.Challenge(verifier), "st")
	wantClass(t, func() error { _, err := a.Exchange(ctx, code, redirect, "other"); return err }(), connections.Unauthorized)
	tok, err := a.Exchange(ctx, fake.Authorize(fake.ClientID(), redirect, platformtest.Challenge(verifier), "st"), redirect, verifier)
	if err != nil || tok.RefreshToken == "" || !tok.Expiry.Equal(now.Add(time.Hour)) {
		t.Fatalf("tokens %+v %v", tok, err)
	}
	id, err := a.Identify(ctx, tok)
	acct := fake.Account()
	if err != nil || id.ID != acct.ID || id.Handle != acct.Handle || id.Extra["channel_title"] != acct.Name {
		t.Fatalf("identity %+v %v", id, err)
	}
	nt, err := a.Refresh(ctx, tok)
	if err != nil || nt.AccessToken == tok.AccessToken || nt.RefreshToken != tok.RefreshToken {
		t.Fatalf("refresh %+v %v", nt, err)
	}
	wantClass(t, func() error { _, err := a.Refresh(ctx, connections.Tokens{AccessToken: "a"}); return err }(), connections.Unauthorized)
	if err := a.Revoke(ctx, nt); err != nil || !fake.Revoked(nt.RefreshToken) {
		t.Fatalf("revoke %v", err)
	}
	wantClass(t, func() error { _, err := a.Refresh(ctx, nt); return err }(), connections.Unauthorized)
	fake.Expire(nt.AccessToken)
	wantClass(t, func() error { _, err := a.Identify(ctx, nt); return err }(), connections.Unauthorized)
}

func TestPublish(t *testing.T) {
	b := bytes.Repeat([]byte("y"), 4096)
	cases := []struct {
		name  string
		post  platforms.Post
		title string
		class connections.Class
	}{
		{name: "titled", post: platforms.Post{Title: "Demo day", Text: "All about it", Media: []platforms.Media{clip(b, true)}}, title: "Demo day"},
		{name: "title from text, unsized", post: platforms.Post{Text: "Line one\nline two", Media: []platforms.Media{clip(b, false)}}, title: "Line one"},
		{name: "no video", post: platforms.Post{Text: "words"}, class: connections.Refused},
		{name: "no title", post: platforms.Post{Media: []platforms.Media{clip(b, true)}}, class: connections.Refused},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a, fake := setup(t, 5*time.Second)
			acct := fake.Account()
			pub, err := a.Publish(context.Background(), fake.Mint(acct.ID), connections.Identity{ID: acct.ID}, c.post)
			if c.class != "" {
				wantClass(t, err, c.class)
				if len(fake.Log()) != 0 {
					t.Fatal("a request was sent")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			posts := fake.Posts()
			if len(posts) != 1 || posts[0].ID != pub.ID || posts[0].Title != c.title || posts[0].Text != c.post.Text ||
				pub.URL != "https://www.youtube.com/watch?v="+pub.ID {
				t.Fatalf("published %+v; fake has %+v", pub, posts)
			}
		})
	}
}

func TestPublishFailures(t *testing.T) {
	post := platforms.Post{Title: "A video", Media: []platforms.Media{clip(bytes.Repeat([]byte("y"), 2048), true)}}
	cases := []struct {
		name    string
		failure platformtest.Failure
		timeout time.Duration
		class   connections.Class // "": published after all
		reason  string
		posts   int
	}{
		{"backend error", platformtest.Failure{Match: "POST /upload/", Kind: platformtest.Transient}, 0, connections.Transient, "backendError", 0},
		{"rate limit", platformtest.Failure{Match: "POST /upload/", Kind: platformtest.RateLimit}, 0, connections.Transient, "rateLimitExceeded", 0},
		{"quota", platformtest.Failure{Match: "PUT /upload/", Kind: platformtest.Refuse, Reason: "quotaExceeded"}, 0, connections.Refused, "quotaExceeded", 0},
		{"upload limit", platformtest.Failure{Match: "POST /upload/", Kind: platformtest.Refuse, Reason: "uploadLimitExceeded"}, 0, connections.Refused, "uploadLimitExceeded", 0},
		{"expired", platformtest.Failure{Match: "POST /upload/", Kind: platformtest.Expired}, 0, connections.Unauthorized, "authError", 0},
		{"upload dropped after it completed", platformtest.Failure{Match: "PUT /upload/", Kind: platformtest.Drop}, 0, "", "", 1},
		{"upload hung, session says incomplete", platformtest.Failure{Match: "PUT /upload/", Kind: platformtest.Hang}, 300 * time.Millisecond, connections.Transient, "did not complete", 0},
		{"upload hung past the deadline", platformtest.Failure{Match: "PUT /upload/", Kind: platformtest.Hang}, 0, connections.Unconfirmed, "", 0},
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
			_, err := a.Publish(ctx, tok, connections.Identity{ID: acct.ID}, post)
			if c.class == "" {
				if err != nil {
					t.Fatal(err)
				}
			} else if ce := wantClass(t, err, c.class); !strings.Contains(ce.Reason, c.reason) || strings.Contains(ce.Error(), tok.AccessToken) {
				t.Errorf("reason %q", ce.Reason)
			}
			if fake.PostCount() != c.posts {
				t.Errorf("posts %d, want %d", fake.PostCount(), c.posts)
			}
			sent := 0
			for _, l := range fake.Log() {
				if strings.HasPrefix(l, "PUT /upload/") {
					sent++
				}
			}
			if sent > 2 { // the upload once, and at most one status query
				t.Errorf("%d PUTs", sent)
			}
		})
	}
}

func TestInsights(t *testing.T) {
	a, fake := setup(t, 5*time.Second)
	acct := fake.Account()
	d := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
	n := func(v int64) *int64 { return &v }
	fake.SetInsights(acct.ID, d.AddDate(0, 0, 1), platformtest.Numbers{Views: n(300), Likes: n(30), Comments: n(3), Shares: n(5), FollowersGained: n(2)})
	days, err := a.Insights(context.Background(), fake.Mint(acct.ID), connections.Identity{ID: acct.ID}, d, d.AddDate(0, 0, 2))
	if err != nil || len(days) != 3 {
		t.Fatalf("%+v %v", days, err)
	}
	if days[0].Views != nil || days[2].FollowersGained != nil {
		t.Errorf("a day without a row has numbers: %+v", days)
	}
	x := days[1]
	if *x.Views != 300 || *x.Likes != 30 || *x.Comments != 3 || *x.Shares != 5 || *x.FollowersGained != 2 {
		t.Errorf("day 1 %+v", x)
	}
}

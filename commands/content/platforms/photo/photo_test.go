package photo_test

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/strata-platform/strata/commands/connections"
	"github.com/strata-platform/strata/commands/content/platforms"
	"github.com/strata-platform/strata/commands/content/platforms/photo"
	"github.com/strata-platform/strata/commands/content/platforms/platformtest"
)

func setup(t *testing.T) (*photo.Adapter, *platformtest.Photo) {
	t.Helper()
	fakes := platformtest.StartAll(t)
	a := photo.New(fakes.Settings(platforms.PhotoNetwork), &http.Client{Timeout: 5 * time.Second})
	a.PollInterval = time.Millisecond
	return a, fakes.Photo
}

func wantClass(t *testing.T, err error, want connections.Class) *connections.CallError {
	t.Helper()
	var ce *connections.CallError
	if !errors.As(err, &ce) || ce.Class != want {
		t.Fatalf("error = %v, want class %s", err, want)
	}
	return ce
}

func TestAuthCodeURL(t *testing.T) {
	a := photo.New(connections.Settings{ClientID: "cid", ClientSecret: "s"}, http.DefaultClient)
	u, err := url.Parse(a.AuthCodeURL("st8", "https://strata.example/cb", "ignored"))
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	if got := u.Scheme + "://" + u.Host + u.Path; got != photo.DefaultAuthURL {
		t.Errorf("endpoint = %s", got)
	}
	for k, v := range map[string]string{"client_id": "cid", "redirect_uri": "https://strata.example/cb", "response_type": "code",
		"state": "st8", "scope": "instagram_business_basic,instagram_business_content_publish,instagram_business_manage_insights"} {
		if q.Get(k) != v {
			t.Errorf("%s = %q, want %q", k, q.Get(k), v)
		}
	}
	if q.Has("code_challenge") || a.PKCE() {
		t.Error("no PKCE expected")
	}
}

func TestExchangeIdentifyRefresh(t *testing.T) {
	a, fake := setup(t)
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	a.Now = func() time.Time { return now }
	ctx := context.Background()
	code := fake.Authorize(fake.ClientID(), "https://strata.example/cb", "", "st")
	tok, err := a.Exchange(ctx, code, "https://strata.example/cb", "")
	if err != nil {
		t.Fatal(err)
	}
	if tok.AccessToken == "" || !tok.Expiry.Equal(now.Add(60*24*time.Hour)) {
		t.Fatalf("tokens = %+v", tok)
	}
	id, err := a.Identify(ctx, tok)
	if err != nil {
		t.Fatal(err)
	}
	if id.ID != fake.Account().ID || id.Handle != "@"+fake.Account().Handle || id.Extra["ig_user_id"] != id.ID {
		t.Fatalf("identity = %+v", id)
	}
	if _, err := a.Exchange(ctx, code, "https://strata.example/cb", ""); err == nil {
		t.Fatal("a used code was accepted")
	}
	nt, err := a.Refresh(ctx, tok)
	if err != nil || nt.AccessToken == "" || nt.AccessToken == tok.AccessToken {
		t.Fatalf("refresh = %+v, %v", nt, err)
	}
	wantClass(t, func() error { _, err := a.Refresh(ctx, connections.Tokens{}); return err }(), connections.Unauthorized)
	old := connections.Tokens{AccessToken: nt.AccessToken, Expiry: now.Add(-time.Minute)}
	wantClass(t, func() error { _, err := a.Refresh(ctx, old); return err }(), connections.Unauthorized)
	if err := a.Revoke(ctx, tok); !errors.Is(err, connections.ErrNoRevoke) {
		t.Fatalf("revoke = %v", err)
	}
	fake.Expire(nt.AccessToken)
	wantClass(t, func() error { _, err := a.Identify(ctx, nt); return err }(), connections.Unauthorized)
}

func acct(fake *platformtest.Photo) (connections.Tokens, connections.Identity) {
	id := fake.Account().ID
	return fake.Mint(id), connections.Identity{ID: id, Extra: map[string]string{"ig_user_id": id}}
}

func TestPublish(t *testing.T) {
	video := platforms.Media{URL: "https://cdn.example/v.mp4", Kind: "video"}
	image := platforms.Media{URL: "https://cdn.example/i.jpg", Kind: "image"}
	cases := []struct {
		name   string
		post   platforms.Post
		polls  int
		media  int
		fail   string
		class  connections.Class
		reason string
	}{
		{name: "reel", post: platforms.Post{Text: "a reel", Media: []platforms.Media{video}}, media: 1},
		{name: "image", post: platforms.Post{Text: "an image", Media: []platforms.Media{image}}, media: 1},
		{name: "carousel", post: platforms.Post{Text: "two", Media: []platforms.Media{image, video}}, media: 2},
		{name: "slow processing", post: platforms.Post{Text: "slow", Media: []platforms.Media{video}}, polls: 3, media: 1},
		{name: "text only", post: platforms.Post{Text: "words"}, class: connections.Refused, reason: "needs an image"},
		{name: "processing error", post: platforms.Post{Text: "bad", Media: []platforms.Media{video}}, fail: "2207026",
			class: connections.Refused, reason: "ERROR"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a, fake := setup(t)
			fake.SetProcessing(c.polls, c.fail)
			tok, id := acct(fake)
			pub, err := a.Publish(context.Background(), tok, id, c.post)
			if c.class != "" {
				ce := wantClass(t, err, c.class)
				if !strings.Contains(ce.Reason, c.reason) || fake.PostCount() != 0 {
					t.Fatalf("reason %q, posts %d", ce.Reason, fake.PostCount())
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			posts := fake.Posts()
			if len(posts) != 1 || posts[0].ID != pub.ID || posts[0].Text != c.post.Text || len(posts[0].Media) != c.media {
				t.Fatalf("published %+v, fake has %+v", pub, posts)
			}
			if pub.URL != "https://www.instagram.com/p/"+pub.ID+"/" {
				t.Errorf("url = %s", pub.URL)
			}
		})
	}
}

func TestPublishFailures(t *testing.T) {
	post := platforms.Post{Text: "reel", Media: []platforms.Media{{URL: "https://cdn.example/v.mp4", Kind: "video"}}}
	cases := []struct {
		name    string
		failure platformtest.Failure
		class   connections.Class
		reason  string
		posts   int
	}{
		{"transient", platformtest.Failure{Match: "POST /v21.0/", Kind: platformtest.Transient}, connections.Transient, "", 0},
		{"rate limit", platformtest.Failure{Match: "POST /v21.0/", Kind: platformtest.RateLimit}, connections.Transient, "4", 0},
		{"refused", platformtest.Failure{Match: "POST /v21.0/", Kind: platformtest.Refuse, Reason: "The aspect ratio is not supported."},
			connections.Refused, "aspect ratio", 0},
		{"expired", platformtest.Failure{Match: "POST /v21.0/", Kind: platformtest.Expired}, connections.Unauthorized, "190", 0},
		{"dropped publish", platformtest.Failure{Match: "POST /v21.0/" + "17841400000000001/media_publish", Kind: platformtest.Drop},
			connections.Unconfirmed, "", 1},
		{"hung publish", platformtest.Failure{Match: "POST /v21.0/17841400000000001/media_publish", Kind: platformtest.Hang},
			connections.Unconfirmed, "", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a, fake := setup(t)
			fake.Fail(c.failure)
			tok, id := acct(fake)
			ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
			defer cancel()
			_, err := a.Publish(ctx, tok, id, post)
			ce := wantClass(t, err, c.class)
			if !strings.Contains(ce.Reason, c.reason) {
				t.Errorf("reason = %q", ce.Reason)
			}
			if fake.PostCount() != c.posts {
				t.Errorf("posts = %d, want %d", fake.PostCount(), c.posts)
			}
			if n := fake.Requests("POST /v21.0/17841400000000001/media_publish"); c.class == connections.Unconfirmed && n != 1 {
				t.Errorf("media_publish sent %d times", n)
			}
			if strings.Contains(ce.Error(), tok.AccessToken) {
				t.Error("the token is in the error")
			}
		})
	}
}

func TestInsights(t *testing.T) {
	a, fake := setup(t)
	tok, id := acct(fake)
	d1 := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	n := func(v int64) *int64 { return &v }
	fake.SetInsights(id.ID, d1, platformtest.Numbers{Views: n(100), Likes: n(7), FollowersGained: n(3)})
	fake.SetInsights(id.ID, d1.AddDate(0, 0, 1), platformtest.Numbers{Comments: n(2), Shares: n(1)})
	days, err := a.Insights(context.Background(), tok, id, d1, d1.AddDate(0, 0, 2))
	if err != nil {
		t.Fatal(err)
	}
	if len(days) != 3 || !days[0].Date.Equal(d1) {
		t.Fatalf("days = %+v", days)
	}
	get := func(p *int64) any {
		if p == nil {
			return nil
		}
		return *p
	}
	want := [][5]any{{int64(100), int64(7), nil, nil, int64(3)}, {nil, nil, int64(2), int64(1), nil}, {nil, nil, nil, nil, nil}}
	for i, d := range days {
		got := [5]any{get(d.Views), get(d.Likes), get(d.Comments), get(d.Shares), get(d.FollowersGained)}
		if got != want[i] {
			t.Errorf("day %d = %v, want %v", i, got, want[i])
		}
	}
}

package content_test

import (
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/strata-platform/strata/commands/content/platforms"
	"github.com/strata-platform/strata/commands/content/platforms/network"
	"github.com/strata-platform/strata/commands/content/platforms/photo"
	"github.com/strata-platform/strata/commands/content/platforms/platformtest"
	"github.com/strata-platform/strata/commands/content/platforms/shortvideo"
	"github.com/strata-platform/strata/commands/content/platforms/videosite"
)

// adapters are the four real adapters pointed at the loopback fakes.
func adapters(f *platformtest.Fakes) []platforms.Platform {
	hc := &http.Client{Timeout: 5 * time.Second}
	sv := shortvideo.New(f.Settings(platforms.ShortVideo), hc)
	sv.PollInterval = 5 * time.Millisecond
	ph := photo.New(f.Settings(platforms.PhotoNetwork), hc)
	ph.PollInterval = 5 * time.Millisecond
	return []platforms.Platform{ph, sv, network.New(f.Settings(platforms.ProfessionalNetwork), hc),
		videosite.New(f.Settings(platforms.VideoSite), hc)}
}

// startWithFakes starts a world on the four fakes.
func startWithFakes(t *testing.T) (*world, *platformtest.Fakes) {
	f := platformtest.StartAll(t)
	return start(t, adapters(f)...), f
}

// connect runs the OAuth flow for u at platform through the fake: the
// connect route's authorization URL, the fake's authorization, the
// callback. It returns the callback's reply.
func (w *world) connect(t *testing.T, u *user, f *platformtest.Fakes, platform string) reply {
	t.Helper()
	r := w.do(t, u, "GET", base+"/social/connect/"+platform, nil)
	if r.Status != http.StatusFound {
		t.Fatalf("connect %s: %d %s", platform, r.Status, r.Raw)
	}
	loc, err := url.Parse(r.Header.Get("Location"))
	if err != nil {
		t.Fatal(err)
	}
	q := loc.Query()
	client := q.Get("client_id")
	if client == "" {
		client = q.Get("client_key")
	}
	code := f.Server(platform).Authorize(client, q.Get("redirect_uri"), q.Get("code_challenge"), q.Get("state"))
	return w.do(t, nil, "GET", base+"/social/callback/"+platform+"?code="+url.QueryEscape(code)+"&state="+url.QueryEscape(q.Get("state")), nil)
}

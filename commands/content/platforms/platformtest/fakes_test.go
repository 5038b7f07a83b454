package platformtest_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/strata-platform/strata/commands/connections"
	"github.com/strata-platform/strata/commands/content/platforms"
	"github.com/strata-platform/strata/commands/content/platforms/network"
	"github.com/strata-platform/strata/commands/content/platforms/photo"
	"github.com/strata-platform/strata/commands/content/platforms/platformtest"
	"github.com/strata-platform/strata/commands/content/platforms/shortvideo"
	"github.com/strata-platform/strata/commands/content/platforms/videosite"
)

// TestConcurrentPublishing sends posts to the four fakes at once from
// many goroutines and accounts: every post is created once.
func TestConcurrentPublishing(t *testing.T) {
	f := platformtest.StartAll(t)
	client := &http.Client{Timeout: 5 * time.Second}
	ph := photo.New(f.Settings(platforms.PhotoNetwork), client)
	ph.PollInterval = time.Millisecond
	sv := shortvideo.New(f.Settings(platforms.ShortVideo), client)
	sv.PollInterval = time.Millisecond
	adapters := []platforms.Platform{ph, sv, network.New(f.Settings(platforms.ProfessionalNetwork), client),
		videosite.New(f.Settings(platforms.VideoSite), client)}
	b := bytes.Repeat([]byte("z"), 512)
	vid := platforms.Media{Kind: "video", URL: "https://cdn.example/v.mp4", Size: int64(len(b)), ContentType: "video/mp4",
		Open: func(context.Context) (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b)), nil }}
	const perPlatform = 40
	var wg sync.WaitGroup
	errs := make(chan error, 4*perPlatform)
	for _, a := range adapters {
		for i := range perPlatform {
			wg.Go(func() {
				acct := fmt.Sprintf("acct-%d", i%4)
				tok := f.Server(a.Name()).Mint(acct)
				id := connections.Identity{ID: acct}
				_, err := a.Publish(context.Background(), tok, id, platforms.Post{Title: "t", Text: fmt.Sprintf("post %d", i), Media: []platforms.Media{vid}})
				if err != nil {
					errs <- fmt.Errorf("%s: %w", a.Name(), err)
				}
			})
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for _, a := range adapters {
		s := f.Server(a.Name())
		if s.PostCount() != perPlatform || s.Duplicates() != 0 {
			t.Errorf("%s: %d posts, %d duplicates", a.Name(), s.PostCount(), s.Duplicates())
		}
	}
}

func TestStartWithoutTB(t *testing.T) {
	f, stop := platformtest.Start()
	s := f.Settings(platforms.VideoSite)
	if s.ClientID == "" || s.APIBase != f.VideoSite.URL() || s.Env != "STRATA_SOCIAL_VIDEO_SITE_" {
		t.Errorf("settings %+v", s)
	}
	stop()
	if f.Server("nope") != nil || f.Settings("nope").APIBase != "" {
		t.Error("an unknown platform has a fake")
	}
}

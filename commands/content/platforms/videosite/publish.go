package videosite

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/strata-platform/strata/commands/connections"
	"github.com/strata-platform/strata/commands/content/platforms"
	"github.com/strata-platform/strata/commands/content/platforms/internal/wire"
)

// Limits.
const (
	maxTitle    = 100     // characters of a title
	maxBuffered = 2 << 30 // a video of unknown size is read whole, up to this
)

// Title is the video's title: p.Title, else the first line of p.Text,
// trimmed to 100 characters (YouTube requires one).
func Title(p platforms.Post) string {
	t := strings.TrimSpace(p.Title)
	if t == "" {
		t, _, _ = strings.Cut(strings.TrimSpace(p.Text), "\n")
		t = strings.TrimSpace(t)
	}
	if r := []rune(t); len(r) > maxTitle {
		t = strings.TrimSpace(string(r[:maxTitle]))
	}
	return t
}

// video is the part of a video resource read.
type video struct {
	ID string `json:"id"`
}

// Publish uploads the one video (see the package comment).
func (a *Adapter) Publish(ctx context.Context, t connections.Tokens, _ connections.Identity, p platforms.Post) (platforms.Published, error) {
	if len(p.Media) != 1 || p.Media[0].Kind != "video" {
		return platforms.Published{}, connections.Fail(connections.Refused, 0, label+" takes exactly one video a post")
	}
	title := Title(p)
	if title == "" {
		return platforms.Published{}, connections.Fail(connections.Refused, 0, label+" needs a title: the post has no title and no text")
	}
	m := p.Media[0]
	size, src := m.Size, io.Reader(nil)
	if size <= 0 {
		b, err := wire.Open(ctx, m.Open, maxBuffered)
		if err != nil {
			return platforms.Published{}, err
		}
		size, src = int64(len(b)), bytes.NewReader(b)
	} else {
		if m.Open == nil {
			return platforms.Published{}, connections.Fail(connections.Refused, 0, "the video cannot be read (no Open)")
		}
		rc, err := m.Open(ctx)
		if err != nil {
			return platforms.Published{}, connections.Fail(connections.Transient, 0, "video not read: "+err.Error())
		}
		defer rc.Close()
		src = rc
	}
	ctype := m.ContentType
	if ctype == "" || !strings.HasPrefix(ctype, "video/") {
		ctype = "video/*"
	}
	meta := map[string]any{
		"snippet": map[string]any{"title": title, "description": p.Text},
		"status":  map[string]any{"privacyStatus": "public", "selfDeclaredMadeForKids": false},
	}
	q := url.Values{"uploadType": {"resumable"}, "part": {"snippet,status"}}
	req, err := connections.NewRequest(ctx, http.MethodPost, a.settings.APIBase+"/upload/youtube/v3/videos?"+q.Encode(), meta)
	if err != nil {
		return platforms.Published{}, err
	}
	req.Header.Set("X-Upload-Content-Length", strconv.FormatInt(size, 10))
	req.Header.Set("X-Upload-Content-Type", ctype)
	// Opening a session creates no video: it is safe to send again.
	resp, err := connections.Send(ctx, a.client, connections.Bearer(req, t.AccessToken), true, apiProblem, refine)
	if err != nil {
		return platforms.Published{}, err
	}
	connections.Drain(resp)
	session := resp.Header.Get("Location")
	if session == "" {
		return platforms.Published{}, connections.Fail(connections.Transient, resp.StatusCode, "the upload session has no Location; nothing uploaded")
	}
	put, err := connections.NewRequest(ctx, http.MethodPut, session, src)
	if err != nil {
		return platforms.Published{}, err
	}
	put.ContentLength = size
	put.Header.Set("Content-Type", ctype)
	resp, err = connections.Send(ctx, a.client, connections.Bearer(put, t.AccessToken), false, apiProblem, refine)
	if err != nil {
		if connections.ClassOf(err) == connections.Unconfirmed {
			if v, done, serr := a.ask(ctx, t, session, size); serr == nil && done {
				return published(v)
			} else if serr == nil {
				return platforms.Published{}, connections.Fail(connections.Transient, 0, "the upload did not complete; nothing was posted")
			}
		}
		return platforms.Published{}, err
	}
	return answer(resp)
}

// ask queries the upload session: done with the video when the upload is
// complete. It is a read (no bytes are sent).
func (a *Adapter) ask(ctx context.Context, t connections.Tokens, session string, size int64) (video, bool, error) {
	req, err := connections.NewRequest(ctx, http.MethodPut, session, nil)
	if err != nil {
		return video{}, false, err
	}
	req.Header.Set("Content-Range", "bytes */"+strconv.FormatInt(size, 10))
	resp, err := connections.Send(ctx, a.client, connections.Bearer(req, t.AccessToken), true, apiProblem, refine)
	if err != nil {
		return video{}, false, err
	}
	if resp.StatusCode == http.StatusPermanentRedirect {
		connections.Drain(resp)
		return video{}, false, nil
	}
	var v video
	if err := connections.ReadJSON(resp, &v, true); err != nil || v.ID == "" {
		return video{}, false, connections.Fail(connections.Unconfirmed, resp.StatusCode, "the upload status is unreadable")
	}
	return v, true, nil
}

// answer reads the PUT's answer: the video resource, or 308 when YouTube
// did not take every byte.
func answer(resp *http.Response) (platforms.Published, error) {
	if resp.StatusCode == http.StatusPermanentRedirect {
		connections.Drain(resp)
		return platforms.Published{}, connections.Fail(connections.Transient, resp.StatusCode, "the upload did not complete; nothing was posted")
	}
	var v video
	if err := connections.ReadJSON(resp, &v, false); err != nil {
		return platforms.Published{}, err
	}
	return published(v)
}

func published(v video) (platforms.Published, error) {
	if v.ID == "" {
		return platforms.Published{}, connections.Fail(connections.Unconfirmed, 0, "the upload was answered without a video id")
	}
	return platforms.Published{ID: v.ID, URL: "https://www.youtube.com/watch?v=" + url.QueryEscape(v.ID)}, nil
}

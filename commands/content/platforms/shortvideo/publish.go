package shortvideo

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"strconv"

	"github.com/strata-platform/strata/commands/connections"
	"github.com/strata-platform/strata/commands/content/platforms"
	"github.com/strata-platform/strata/commands/content/platforms/internal/wire"
)

// TikTok's chunk rules.
const (
	singleChunkMax = 64 << 20 // a video up to this size goes in one chunk
	chunkSize      = 10 << 20 // above, chunks of this size (5 to 64 MB allowed)
	maxBuffered    = 1 << 30  // a video of unknown size is read whole, up to this
)

// chunks plans the upload: the chunk size and count TikTok is told (the
// last chunk takes the remainder, up to 2*chunkSize-1 bytes).
func chunks(size int64) (int64, int64) {
	if size <= singleChunkMax {
		return size, 1
	}
	return chunkSize, size / chunkSize
}

// Publish posts one video (see the package comment).
func (a *Adapter) Publish(ctx context.Context, t connections.Tokens, acct connections.Identity, p platforms.Post) (platforms.Published, error) {
	if len(p.Media) != 1 || p.Media[0].Kind != "video" {
		return platforms.Published{}, connections.Fail(connections.Refused, 0, label+" takes exactly one video a post")
	}
	m := p.Media[0]
	var info struct {
		Options []string `json:"privacy_level_options"`
	}
	if err := a.call(ctx, t, http.MethodPost, "/v2/post/publish/creator_info/query/", map[string]any{}, true, &info); err != nil {
		return platforms.Published{}, err
	}
	privacy := ""
	for _, o := range info.Options {
		if o == "PUBLIC_TO_EVERYONE" || privacy == "" {
			privacy = o
		}
	}
	if privacy == "" {
		return platforms.Published{}, connections.Fail(connections.Refused, 0, "the creator has no privacy level to post with")
	}
	size, whole := m.Size, []byte(nil)
	if size <= 0 {
		b, err := wire.Open(ctx, m.Open, maxBuffered)
		if err != nil {
			return platforms.Published{}, err
		}
		size, whole = int64(len(b)), b
	}
	if size == 0 {
		return platforms.Published{}, connections.Fail(connections.Refused, 0, "the video is empty")
	}
	csize, count := chunks(size)
	title := p.Text
	if title == "" {
		title = p.Title
	}
	init := map[string]any{
		"post_info": map[string]any{"title": title, "privacy_level": privacy, "disable_comment": false, "disable_duet": false,
			"disable_stitch": false},
		"source_info": map[string]any{"source": "FILE_UPLOAD", "video_size": size, "chunk_size": csize, "total_chunk_count": count},
	}
	var up struct {
		PublishID string `json:"publish_id"`
		UploadURL string `json:"upload_url"`
	}
	if err := a.call(ctx, t, http.MethodPost, "/v2/post/publish/video/init/", init, false, &up); err != nil {
		var ce *connections.CallError
		if errors.As(err, &ce) && ce.Class == connections.Unconfirmed {
			// Without the upload there is no post: safe to try again.
			ce.Class, ce.Reason = connections.Transient, "init unanswered, nothing uploaded: "+ce.Reason
		}
		return platforms.Published{}, err
	}
	if up.PublishID == "" || up.UploadURL == "" {
		return platforms.Published{}, connections.Fail(connections.Transient, 0, "init answered no publish_id or upload_url; nothing uploaded")
	}
	if err := a.upload(ctx, m, whole, size, csize, count, up.UploadURL); err != nil {
		if connections.ClassOf(err) != connections.Unconfirmed {
			return platforms.Published{}, err
		}
		// The last chunk's answer was lost: the status tells whether
		// the upload completed.
		st, serr := a.status(ctx, t, up.PublishID)
		if serr == nil && st.Status == "PROCESSING_UPLOAD" && st.UploadedBytes < size {
			return platforms.Published{}, connections.Fail(connections.Transient, 0, "the upload did not complete; nothing was posted")
		}
		if serr != nil && connections.ClassOf(serr) != connections.Transient {
			return platforms.Published{}, err
		}
	}
	return a.settle(ctx, t, acct, up.PublishID)
}

// upload PUTs the chunks; every chunk but the last is idempotent.
func (a *Adapter) upload(ctx context.Context, m platforms.Media, whole []byte, size, csize, count int64, target string) error {
	var src io.Reader
	if whole != nil {
		src = bytes.NewReader(whole)
	} else {
		if m.Open == nil {
			return connections.Fail(connections.Refused, 0, "the video cannot be read (no Open)")
		}
		rc, err := m.Open(ctx)
		if err != nil {
			return connections.Fail(connections.Transient, 0, "video not read: "+err.Error())
		}
		defer rc.Close()
		src = rc
	}
	ctype := m.ContentType
	if ctype == "" {
		ctype = "video/mp4"
	}
	for i := int64(0); i < count; i++ {
		first, n := i*csize, csize
		last := i == count-1
		if last {
			n = size - first
		}
		buf := make([]byte, n)
		if _, err := io.ReadFull(src, buf); err != nil {
			return connections.Fail(connections.Transient, 0, "video shorter than its size: "+err.Error())
		}
		req, err := connections.NewRequest(ctx, http.MethodPut, target, buf)
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", ctype)
		req.Header.Set("Content-Range", "bytes "+strconv.FormatInt(first, 10)+"-"+strconv.FormatInt(first+n-1, 10)+"/"+strconv.FormatInt(size, 10))
		resp, err := connections.Send(ctx, a.client, req, !last, apiProblem, refine)
		if err != nil {
			return err
		}
		connections.Drain(resp)
	}
	return nil
}

// publishStatus is status/fetch's data.
type publishStatus struct {
	Status        string   `json:"status"`
	FailReason    string   `json:"fail_reason"`
	PostIDs       []uint64 `json:"publicaly_available_post_id"`
	UploadedBytes int64    `json:"uploaded_bytes"`
}

func (a *Adapter) status(ctx context.Context, t connections.Tokens, publishID string) (publishStatus, error) {
	var st publishStatus
	err := a.call(ctx, t, http.MethodPost, "/v2/post/publish/status/fetch/", map[string]string{"publish_id": publishID}, true, &st)
	return st, err
}

// settle polls the status until TikTok says the post is published or
// failed. The video was sent: any other end is Unconfirmed.
func (a *Adapter) settle(ctx context.Context, t connections.Tokens, acct connections.Identity, publishID string) (platforms.Published, error) {
	for {
		st, err := a.status(ctx, t, publishID)
		switch {
		case err != nil && connections.ClassOf(err) != connections.Transient:
			return platforms.Published{}, connections.Fail(connections.Unconfirmed, 0, "the video was sent; its status could not be read: "+err.Error())
		case err != nil:
		case st.Status == "PUBLISH_COMPLETE":
			out := platforms.Published{ID: publishID}
			if len(st.PostIDs) > 0 {
				out.ID = strconv.FormatUint(st.PostIDs[0], 10)
				if u := acct.Extra["username"]; u != "" {
					out.URL = "https://www.tiktok.com/@" + u + "/video/" + out.ID
				}
			}
			return out, nil
		case st.Status == "FAILED":
			return platforms.Published{}, connections.Fail(connections.Refused, 0, label+" did not publish the video ("+st.FailReason+")")
		}
		if wire.Wait(ctx, a.PollInterval) != nil {
			return platforms.Published{}, connections.Fail(connections.Unconfirmed, 0, "the video was sent; stopped before the platform said whether it was published")
		}
	}
}

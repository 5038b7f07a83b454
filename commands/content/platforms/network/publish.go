package network

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"

	"github.com/strata-platform/strata/commands/connections"
	"github.com/strata-platform/strata/commands/content/platforms"
	"github.com/strata-platform/strata/commands/content/platforms/internal/wire"
)

// Upload limits.
const (
	maxImage = 100 << 20
	maxVideo = 500 << 20
	maxImgs  = 20
)

// reserved are the characters LinkedIn's "little text" format reserves.
const reserved = `\|{}@[]()<>#*_~`

// Escape escapes the little-text reserved characters of s with a backslash
// so that LinkedIn shows them as written.
func Escape(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(reserved, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Publish uploads the media, then creates the post (see the package comment).
func (a *Adapter) Publish(ctx context.Context, t connections.Tokens, acct connections.Identity, p platforms.Post) (platforms.Published, error) {
	author := personURN(acct)
	videos := 0
	for _, m := range p.Media {
		if m.Kind == "video" {
			videos++
		}
	}
	switch {
	case videos > 0 && len(p.Media) > 1:
		return platforms.Published{}, connections.Fail(connections.Refused, 0, label+" takes one video alone in a post")
	case len(p.Media) > maxImgs:
		return platforms.Published{}, connections.Fail(connections.Refused, 0, label+" takes at most 20 images in a post")
	}
	var ids []string
	for _, m := range p.Media {
		var id string
		var err error
		if m.Kind == "video" {
			id, err = a.uploadVideo(ctx, t, author, m)
		} else {
			id, err = a.uploadImage(ctx, t, author, m)
		}
		if err != nil {
			return platforms.Published{}, err
		}
		ids = append(ids, id)
	}
	body := map[string]any{
		"author": author, "commentary": Escape(p.Text), "visibility": "PUBLIC",
		"distribution":   map[string]any{"feedDistribution": "MAIN_FEED", "targetEntities": []any{}, "thirdPartyDistributionChannels": []any{}},
		"lifecycleState": "PUBLISHED", "isReshareDisabledByAuthor": false,
	}
	switch {
	case len(ids) == 1:
		media := map[string]any{"id": ids[0]}
		if p.Title != "" {
			media["title"] = p.Title
		}
		body["content"] = map[string]any{"media": media}
	case len(ids) > 1:
		var images []map[string]any
		for _, id := range ids {
			images = append(images, map[string]any{"id": id, "altText": ""})
		}
		body["content"] = map[string]any{"multiImage": map[string]any{"images": images}}
	}
	var urn string
	err := a.do(ctx, t, http.MethodPost, a.settings.APIBase+"/rest/posts", body, false, nil, func(h http.Header) {
		urn = h.Get("x-restli-id")
	})
	if err != nil {
		return platforms.Published{}, err
	}
	out := platforms.Published{ID: urn}
	if urn != "" {
		out.URL = "https://www.linkedin.com/feed/update/" + urn + "/"
	}
	return out, nil
}

// uploadImage uploads one image and returns its URN.
func (a *Adapter) uploadImage(ctx context.Context, t connections.Tokens, owner string, m platforms.Media) (string, error) {
	b, err := wire.Open(ctx, m.Open, maxImage)
	if err != nil {
		return "", err
	}
	var init struct {
		Value struct {
			UploadURL string `json:"uploadUrl"`
			Image     string `json:"image"`
		} `json:"value"`
	}
	req := map[string]any{"initializeUploadRequest": map[string]any{"owner": owner}}
	if err := a.do(ctx, t, http.MethodPost, a.settings.APIBase+"/rest/images?action=initializeUpload", req, true, &init, nil); err != nil {
		return "", err
	}
	if init.Value.UploadURL == "" || init.Value.Image == "" {
		return "", connections.Fail(connections.Transient, 0, "initializeUpload answered no uploadUrl or image")
	}
	if _, err := a.put(ctx, t, init.Value.UploadURL, b, m.ContentType); err != nil {
		return "", err
	}
	return init.Value.Image, nil
}

// uploadVideo uploads a video in the parts LinkedIn asks for, finalizes
// it and returns its URN.
func (a *Adapter) uploadVideo(ctx context.Context, t connections.Tokens, owner string, m platforms.Media) (string, error) {
	var src io.Reader
	size := m.Size
	if size <= 0 {
		b, err := wire.Open(ctx, m.Open, maxVideo)
		if err != nil {
			return "", err
		}
		src, size = bytes.NewReader(b), int64(len(b))
	} else {
		if m.Open == nil {
			return "", connections.Fail(connections.Refused, 0, "the video cannot be read (no Open)")
		}
		rc, err := m.Open(ctx)
		if err != nil {
			return "", connections.Fail(connections.Transient, 0, "video not read: "+err.Error())
		}
		defer rc.Close()
		src = rc
	}
	var init struct {
		Value struct {
			Video        string `json:"video"`
			UploadToken  string `json:"uploadToken"`
			Instructions []struct {
				UploadURL string `json:"uploadUrl"`
				FirstByte int64  `json:"firstByte"`
				LastByte  int64  `json:"lastByte"`
			} `json:"uploadInstructions"`
		} `json:"value"`
	}
	req := map[string]any{"initializeUploadRequest": map[string]any{"owner": owner, "fileSizeBytes": size,
		"uploadCaptions": false, "uploadThumbnail": false}}
	if err := a.do(ctx, t, http.MethodPost, a.settings.APIBase+"/rest/videos?action=initializeUpload", req, true, &init, nil); err != nil {
		return "", err
	}
	if init.Value.Video == "" || len(init.Value.Instructions) == 0 {
		return "", connections.Fail(connections.Transient, 0, "initializeUpload answered no video or upload instructions")
	}
	var etags []string
	for _, in := range init.Value.Instructions {
		n := in.LastByte - in.FirstByte + 1
		if n <= 0 || n > maxVideo {
			return "", connections.Fail(connections.Transient, 0, "an upload instruction has an impossible byte range")
		}
		buf := make([]byte, n)
		if _, err := io.ReadFull(src, buf); err != nil {
			return "", connections.Fail(connections.Transient, 0, "video shorter than its size: "+err.Error())
		}
		etag, err := a.put(ctx, t, in.UploadURL, buf, "application/octet-stream")
		if err != nil {
			return "", err
		}
		etags = append(etags, etag)
	}
	fin := map[string]any{"finalizeUploadRequest": map[string]any{"video": init.Value.Video, "uploadToken": init.Value.UploadToken,
		"uploadedPartIds": etags}}
	if err := a.do(ctx, t, http.MethodPost, a.settings.APIBase+"/rest/videos?action=finalizeUpload", fin, true, nil, nil); err != nil {
		return "", err
	}
	return init.Value.Video, nil
}

// put uploads bytes to an upload URL and returns the ETag. An upload
// creates no post, so it is sent as idempotent.
func (a *Adapter) put(ctx context.Context, t connections.Tokens, target string, b []byte, ctype string) (string, error) {
	req, err := connections.NewRequest(ctx, http.MethodPut, target, b)
	if err != nil {
		return "", err
	}
	if ctype == "" {
		ctype = "application/octet-stream"
	}
	req.Header.Set("Content-Type", ctype)
	resp, err := connections.Send(ctx, a.client, connections.Bearer(req, t.AccessToken), true, apiProblem, refine)
	if err != nil {
		return "", err
	}
	connections.Drain(resp)
	return resp.Header.Get("ETag"), nil
}

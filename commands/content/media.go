package content

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"

	"github.com/strata-platform/strata/commands/connections"
	"github.com/strata-platform/strata/commands/content/platforms"
	"github.com/strata-platform/strata/commands/outbound"
)

// DefaultMaxMedia caps one fetched media file (512 MiB).
const DefaultMaxMedia = 512 << 20

// Fetcher fetches media through the platform's SSRF-safe outbound client
// (every address dialled is checked, redirects included) into a temporary
// file, so that platforms that take uploads read it from disk.
type Fetcher struct {
	Client *outbound.Client
	// Max caps a file (DefaultMaxMedia when 0).
	Max int64
	// Dir holds the temporary files ("" : the system's).
	Dir string
}

// Fetch downloads rawURL; release removes the temporary file. Failures are *connections.CallError: Transient
// for what may pass (a 5xx, the network), Refused for what will not (a 4xx,
// an address the client refuses, a file too large, not an image or video).
func (f *Fetcher) Fetch(ctx context.Context, rawURL string) (platforms.Media, func(), error) {
	limit := f.Max
	if limit <= 0 {
		limit = DefaultMaxMedia
	}
	req, err := http.NewRequestWithContext(outbound.WithResponseLimit(ctx, limit), http.MethodGet, rawURL, nil)
	if err != nil {
		return platforms.Media{}, nil, connections.Fail(connections.Refused, 0, "the media URL is not valid")
	}
	resp, err := f.Client.Do(req.Context(), req, outbound.DefaultRetry())
	if err != nil {
		var refused *outbound.Refused
		if errors.As(err, &refused) {
			return platforms.Media{}, nil, connections.Fail(connections.Refused, 0, "the media URL's address may not be fetched ("+refused.Rule+")")
		}
		return platforms.Media{}, nil, connections.Fail(connections.Transient, 0, "the media URL could not be fetched")
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 500 || resp.StatusCode == http.StatusTooManyRequests {
		return platforms.Media{}, nil, connections.Fail(connections.Transient, resp.StatusCode, "the media URL answered "+resp.Status)
	}
	if resp.StatusCode != http.StatusOK {
		return platforms.Media{}, nil, connections.Fail(connections.Refused, resp.StatusCode, "the media URL answered "+resp.Status)
	}
	ct := strings.ToLower(strings.TrimSpace(strings.Split(resp.Header.Get("Content-Type"), ";")[0]))
	kind := ""
	switch {
	case strings.HasPrefix(ct, "video/"):
		kind = "video"
	case strings.HasPrefix(ct, "image/"):
		kind = "image"
	default:
		return platforms.Media{}, nil, connections.Fail(connections.Refused, 0, fmt.Sprintf("the media URL serves %q, not an image or a video", ct))
	}
	file, err := os.CreateTemp(f.Dir, "strata-media-*")
	if err != nil {
		return platforms.Media{}, nil, err
	}
	n, err := io.Copy(file, resp.Body)
	if cerr := file.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_ = os.Remove(file.Name())
		if errors.Is(err, outbound.ErrTooLarge) {
			return platforms.Media{}, nil, connections.Fail(connections.Refused, 0, fmt.Sprintf("the media file is larger than %d bytes", limit))
		}
		return platforms.Media{}, nil, connections.Fail(connections.Transient, 0, "the media download was interrupted")
	}
	path := file.Name()
	return platforms.Media{URL: rawURL, Kind: kind, ContentType: ct, Size: n,
		Open: func(context.Context) (io.ReadCloser, error) { return os.Open(path) }}, func() { _ = os.Remove(path) }, nil
}

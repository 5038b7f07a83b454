// Package platforms holds the content workflow's four social platform
// adapters behind one interface: each speaks its platform's real OAuth 2
// dialect and publishing and insights APIs against configurable base URLs
// (the photo network: the Instagram Graph API; the short-video platform:
// TikTok's Content Posting API v2; the professional network: LinkedIn's
// Posts API; the video site: the YouTube Data and Analytics APIs).
package platforms

import (
	"context"
	"io"
	"time"

	"github.com/strata-platform/strata/commands/connections"
)

// The platform names (the seed's neutral names).
const (
	PhotoNetwork        = "photo_network"
	ShortVideo          = "short_video"
	ProfessionalNetwork = "professional_network"
	VideoSite           = "video_site"
)

// Names lists the platforms in the order they are documented.
var Names = []string{PhotoNetwork, ShortVideo, ProfessionalNetwork, VideoSite}

// Media is one image or video of a post.
type Media struct {
	// URL is where the media is (fetched through the SSRF-safe client);
	// platforms that pull media themselves are given it.
	URL string
	// Kind is "video" or "image".
	Kind string
	// ContentType and Size as fetched (0: unknown).
	ContentType string
	Size        int64
	// Open returns the media's bytes, for platforms that take an upload.
	Open func(ctx context.Context) (io.ReadCloser, error)
}

// Post is what is published to one account.
type Post struct {
	// Key identifies this publish attempt's target (our id); adapters send
	// it where the platform takes an idempotency key or a client reference.
	Key string
	// Title is the video title where the platform has one (the video site).
	Title string
	// Text is the caption, commentary or description.
	Text  string
	Media []Media
}

// Published is the platform's confirmation of a post.
type Published struct {
	// ID is the platform's id of the post (a media id, a publish id, a
	// share URN, a video id).
	ID string
	// URL of the post where the platform gives or implies one.
	URL string
}

// Day is one day of an account's insights. A nil field is a number the
// platform did not give: it is reported as null, never as 0.
type Day struct {
	Date            time.Time // UTC midnight
	Views           *int64
	Likes           *int64
	Comments        *int64
	Shares          *int64
	FollowersGained *int64
}

// Platform is one social platform: its OAuth dialect (connections.Provider)
// and its publishing and insights calls. Failures are
// *connections.CallError: Transient (retry), Refused (with the platform's
// reason), Unconfirmed (sent; the platform did not say whether it posted:
// never retried automatically), Unauthorized (reconnect).
type Platform interface {
	connections.Provider
	// Publish posts p to the account. It must not return until the
	// platform confirmed the post (a publish that the platform processes
	// asynchronously is polled until it reports success or failure, within
	// ctx), and it never repeats a request that might have created a post.
	Publish(ctx context.Context, t connections.Tokens, acct connections.Identity, p Post) (Published, error)
	// Insights returns the account's daily numbers for the days from
	// through to (UTC dates, inclusive) that the platform reports.
	Insights(ctx context.Context, t connections.Tokens, acct connections.Identity, from, to time.Time) ([]Day, error)
}

package community

import (
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

// Feed is the fold of a user's calendar feed stream in one tenant: the
// active feed, if any.
type Feed struct {
	FeedID    string
	TokenHash string
	IssuedAt  time.Time
	Active    bool
	Version   int64
}

// Apply folds one event of the feed stream.
func (f *Feed) Apply(ev kernel.Event) {
	switch ev := ev.(type) {
	case *CalendarFeedIssued:
		f.FeedID, f.TokenHash, f.IssuedAt, f.Active = ev.FeedID, ev.TokenHash, ev.At, true
	case *CalendarFeedRevoked:
		f.Active = false
	}
}

// IssueFeed decides a new feed token (its SHA-256 in hex) for user in
// tenant; it replaces the active one, whose token stops working.
func (f *Feed) IssueFeed(feedID, tenant, user, tokenHash string, now time.Time) (*CalendarFeedIssued, error) {
	if tenant == "" {
		return nil, NoTenant()
	}
	ev := &CalendarFeedIssued{FeedID: feedID, TenantID: tenant, UserID: user, TokenHash: tokenHash, At: stamp(now)}
	if f.Active {
		ev.Replaces = f.FeedID
	}
	return ev, nil
}

// Revoke decides the end of the active feed.
func (f *Feed) Revoke(tenant, user string, now time.Time) (*CalendarFeedRevoked, error) {
	if !f.Active {
		return nil, kernel.NotFound("there is no active calendar feed")
	}
	return &CalendarFeedRevoked{FeedID: f.FeedID, TenantID: tenant, UserID: user, At: stamp(now)}, nil
}

package community

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"strings"

	"github.com/strata-platform/strata/domain/community"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
)

// FeedTokenPrefix starts every calendar feed token.
const FeedTokenPrefix = "scf_"

// IssuedFeed is a new calendar feed; Token is shown once and kept only as
// its SHA-256.
type IssuedFeed struct {
	FeedID string
	Token  string
	community.Feed
}

// IssueFeed gives user a new calendar feed token in tenant, replacing the
// active one (whose token stops working), and returns it once the feed
// answers to it.
func (s *Service) IssueFeed(ctx context.Context, tenant, user string) (IssuedFeed, error) {
	if tenant == "" {
		return IssuedFeed{}, community.NoTenant()
	}
	var secret [32]byte
	if _, err := rand.Read(secret[:]); err != nil {
		return IssuedFeed{}, err
	}
	token := FeedTokenPrefix + base64.RawURLEncoding.EncodeToString(secret[:])
	id := newID()
	var out IssuedFeed
	app, err := onStream(ctx, s, feedStream(tenant, user), func(f *community.Feed, _ int64) ([]kernel.Event, error) {
		ev, err := f.IssueFeed(id, tenant, user, HashFeedToken(token), s.clock.Now())
		if err != nil {
			return nil, err
		}
		f.Apply(ev)
		out = IssuedFeed{FeedID: id, Token: token, Feed: *f}
		return []kernel.Event{ev}, nil
	})
	if err != nil {
		return IssuedFeed{}, err
	}
	return out, s.settle(ctx, app)
}

// RevokeFeed ends user's active calendar feed in tenant; it is not found
// when there is none. The token is refused as soon as this returns.
func (s *Service) RevokeFeed(ctx context.Context, tenant, user string) error {
	if tenant == "" {
		return community.NoTenant()
	}
	app, err := onStream(ctx, s, feedStream(tenant, user), func(f *community.Feed, _ int64) ([]kernel.Event, error) {
		ev, err := f.Revoke(tenant, user, s.clock.Now())
		if err != nil {
			return nil, err
		}
		return []kernel.Event{ev}, nil
	})
	if err != nil {
		return err
	}
	return s.settle(ctx, app)
}

// Feed returns user's calendar feed in tenant (Active false when none).
func (s *Service) Feed(ctx context.Context, tenant, user string) (community.Feed, error) {
	if tenant == "" {
		return community.Feed{}, community.NoTenant()
	}
	f, _, err := load[community.Feed](ctx, s, community.FeedStream(tenant, user))
	if err != nil {
		return community.Feed{}, err
	}
	return *f, nil
}

// HashFeedToken is the recorded form of a feed token: hex SHA-256. A token
// without the feed prefix hashes to something no feed has.
func HashFeedToken(token string) string {
	sum := sha256.Sum256([]byte(strings.TrimSpace(token)))
	return hex.EncodeToString(sum[:])
}

func feedStream(tenant, user string) eventstore.Stream {
	return eventstore.Stream{Type: community.StreamFeed, ID: community.FeedStream(tenant, user)}
}

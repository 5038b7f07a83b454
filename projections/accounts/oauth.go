package accounts

import (
	"time"

	"github.com/strata-platform/strata/domain/identity"
	"github.com/strata-platform/strata/eventstore"
)

// oauthState is the OAuth part of the directory: clients, grants and the
// indexes from a code or refresh-token hash to its grant.
type oauthState struct {
	clients   map[string]*identity.OAuthClient
	grants    map[string]*identity.Grant
	byCode    map[string]string // code hash -> grant id
	byRefresh map[string]string // refresh hash (current and spent) -> grant id
	social    map[string]string // provider + "\x00" + subject -> user id
	pictures  map[string]string // user id -> the newest social provider picture
}

func newOAuthState() oauthState {
	return oauthState{clients: map[string]*identity.OAuthClient{}, grants: map[string]*identity.Grant{},
		byCode: map[string]string{}, byRefresh: map[string]string{}, social: map[string]string{},
		pictures: map[string]string{}}
}

// applyOAuth folds an OAuth or social sign-in event; it reports whether e was one.
func (d *Directory) applyOAuth(e eventstore.Envelope) bool {
	o := &d.oauth
	switch ev := e.Event.(type) {
	case *identity.OAuthClientRegistered:
		c := identity.ClientFrom(ev)
		o.clients[ev.ClientID] = &c
	case *identity.OAuthConsentDenied:
	case *identity.OAuthAuthorizationGranted:
		g := &identity.Grant{}
		g.Apply(ev)
		o.grants[ev.GrantID] = g
		o.byCode[ev.CodeHash] = ev.GrantID
	case *identity.OAuthCodeExchanged:
		d.applyGrant(ev.GrantID, ev)
		if ev.RefreshHash != "" {
			o.byRefresh[ev.RefreshHash] = ev.GrantID
		}
	case *identity.OAuthTokenRefreshed:
		d.applyGrant(ev.GrantID, ev)
		o.byRefresh[ev.RefreshHash] = ev.GrantID
	case *identity.OAuthGrantRevoked:
		d.applyGrant(ev.GrantID, ev)
	case *identity.SocialIdentityLinked:
		o.social[ev.Provider+"\x00"+ev.Subject] = ev.UserID
		if ev.Picture != "" {
			o.pictures[ev.UserID] = ev.Picture
		}
		d.applyUser(ev.UserID, ev)
	default:
		return false
	}
	return true
}

func (d *Directory) applyGrant(id string, ev any) {
	if g := d.oauth.grants[id]; g != nil {
		g.Apply(ev)
	}
}

// OAuthClient returns a copy of the registered client with id.
func (d *Directory) OAuthClient(id string) (identity.OAuthClient, bool) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	c, ok := d.oauth.clients[id]
	if !ok {
		return identity.OAuthClient{}, false
	}
	return *c, true
}

// Grant returns a copy of the grant with id.
func (d *Directory) Grant(id string) (identity.Grant, bool) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	return d.grantLocked(id)
}

func (d *Directory) grantLocked(id string) (identity.Grant, bool) {
	g, ok := d.oauth.grants[id]
	if !ok {
		return identity.Grant{}, false
	}
	c := *g
	c.Spent = append([]string(nil), g.Spent...)
	return c, true
}

// GrantByCode returns the grant an authorization code (its hash) belongs to.
func (d *Directory) GrantByCode(hash string) (identity.Grant, bool) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	return d.grantLocked(d.oauth.byCode[hash])
}

// GrantByRefresh returns the grant a refresh token (its hash, current or
// spent) belongs to.
func (d *Directory) GrantByRefresh(hash string) (identity.Grant, bool) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	return d.grantLocked(d.oauth.byRefresh[hash])
}

// GrantActive reports whether the grant with id exists and is not revoked:
// the check every OAuth access token passes on every request.
func (d *Directory) GrantActive(id string) bool {
	d.mu.RLock()
	defer d.mu.RUnlock()
	g, ok := d.oauth.grants[id]
	return ok && !g.Revoked
}

// Picture returns the avatar URL a social provider gave for userID when
// the account was linked ("" when none).
func (d *Directory) Picture(userID string) string {
	d.mu.RLock()
	defer d.mu.RUnlock()
	return d.oauth.pictures[userID]
}

// SocialUser returns the user linked to a provider's subject.
func (d *Directory) SocialUser(provider, subject string) (identity.User, bool) {
	d.mu.RLock()
	id, ok := d.oauth.social[provider+"\x00"+subject]
	d.mu.RUnlock()
	if !ok {
		return identity.User{}, false
	}
	return d.User(id)
}

// pruneGrants forgets grants whose code and refresh token have both
// expired, with their indexes: nothing presented for them can succeed.
func (d *Directory) pruneGrants(now time.Time) {
	o := &d.oauth
	for id, g := range o.grants {
		if now.Before(g.CodeExpiresAt.Add(time.Minute)) || now.Before(g.RefreshExpiresAt.Add(time.Minute)) {
			continue
		}
		if g.CodeUsed && g.Refresh == "" && now.Before(g.CodeExpiresAt.Add(identity.OAuthAccessTokenTTL+time.Minute)) {
			continue // its access token may still be presented
		}
		delete(o.byCode, g.CodeHash)
		delete(o.byRefresh, g.Refresh)
		for _, s := range g.Spent {
			delete(o.byRefresh, s)
		}
		delete(o.grants, id)
	}
}

package accounts

import (
	"strings"

	"github.com/strata-platform/strata/domain/identity"
)

// User returns a copy of the user with id.
func (d *Directory) User(id string) (identity.User, bool) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	u, ok := d.users[id]
	if !ok {
		return identity.User{}, false
	}
	return *u, true
}

// UserByEmail returns a copy of the user registered with email (any case).
func (d *Directory) UserByEmail(email string) (identity.User, bool) {
	d.mu.RLock()
	id, ok := d.byEmail[strings.ToLower(strings.TrimSpace(email))]
	d.mu.RUnlock()
	if !ok {
		return identity.User{}, false
	}
	return d.User(id)
}

// UserByResetToken returns the user a reset token hash was issued to, if
// that token is still the user's newest and unused.
func (d *Directory) UserByResetToken(hash string) (identity.User, bool) {
	d.mu.RLock()
	id, ok := d.resets[hash]
	d.mu.RUnlock()
	if !ok {
		return identity.User{}, false
	}
	return d.User(id)
}

// Revoked reports whether the token with jti was logged out.
func (d *Directory) Revoked(jti string) bool {
	d.mu.RLock()
	defer d.mu.RUnlock()
	_, ok := d.revoked[jti]
	return ok
}

// Organization returns a copy of the organization with id.
func (d *Directory) Organization(id string) (Organization, bool) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	o, ok := d.orgs[id]
	if !ok {
		return Organization{}, false
	}
	c := *o
	c.Members = make(map[string]string, len(o.Members))
	for k, v := range o.Members {
		c.Members[k] = v
	}
	c.Projects = append([]Project(nil), o.Projects...)
	return c, true
}

// APIKey returns a copy of the API key record with id.
func (d *Directory) APIKey(id string) (identity.Key, bool) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	k, ok := d.keys[id]
	if !ok {
		return identity.Key{}, false
	}
	return *k, true
}

// KeyByLookup returns the key record whose public lookup id is lookup, with
// its owner.
func (d *Directory) KeyByLookup(lookup string) (identity.Key, identity.User, bool) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	id, ok := d.byLookup[lookup]
	if !ok {
		return identity.Key{}, identity.User{}, false
	}
	k := d.keys[id]
	u, ok := d.users[k.UserID]
	if !ok {
		return identity.Key{}, identity.User{}, false
	}
	return *k, *u, true
}

// UserKeys returns copies of a user's API keys, oldest first.
func (d *Directory) UserKeys(userID string) []identity.Key {
	d.mu.RLock()
	defer d.mu.RUnlock()
	ids := d.userKeys[userID]
	out := make([]identity.Key, 0, len(ids))
	for _, id := range ids {
		if k := d.keys[id]; k != nil && k.UserID == userID {
			out = append(out, *k)
		}
	}
	return out
}

// SigningKeys returns the signing keys in the order they were added.
func (d *Directory) SigningKeys() []identity.SigningKeyAdded {
	d.mu.RLock()
	defer d.mu.RUnlock()
	return append([]identity.SigningKeyAdded(nil), d.signing...)
}

// ClaimedKey returns the key issued in place of the tmp_ key keyID when its
// identity was claimed (merged into a real account), if it was.
func (d *Directory) ClaimedKey(keyID string) (identity.Key, bool) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	id, ok := d.claims[keyID]
	if !ok || d.keys[id] == nil {
		return identity.Key{}, false
	}
	return *d.keys[id], true
}

// Membership is one organization a user belongs to, with the user's role.
type Membership struct {
	Organization Organization
	Role         string
}

// Memberships returns the organizations userID belongs to, in the order joined.
func (d *Directory) Memberships(userID string) []Membership {
	d.mu.RLock()
	ids := append([]string(nil), d.userOrgs[userID]...)
	d.mu.RUnlock()
	var out []Membership
	seen := map[string]bool{}
	for _, id := range ids {
		if seen[id] {
			continue
		}
		seen[id] = true
		if o, ok := d.Organization(id); ok {
			if role, member := o.Members[userID]; member {
				out = append(out, Membership{Organization: o, Role: role})
			}
		}
	}
	return out
}

// Role returns userID's role in organization orgID ("" when not a member).
func (d *Directory) Role(orgID, userID string) string {
	d.mu.RLock()
	defer d.mu.RUnlock()
	if o := d.orgs[orgID]; o != nil {
		return o.Members[userID]
	}
	return ""
}

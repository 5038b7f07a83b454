package main

import (
	"context"
	"time"

	"github.com/gorilla/mux"

	cmdcommunity "github.com/strata-platform/strata/commands/community"
	"github.com/strata-platform/strata/domain/identity"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/projections/accounts"
	projcommunity "github.com/strata-platform/strata/projections/community"
	readcommunity "github.com/strata-platform/strata/readapi/community"
)

// startCommunity builds the community's service: read-your-writes through
// its projector, bounded by STRATA_READ_WAIT_MS.
func startCommunity(_ context.Context, app *App) error {
	wait := func(ctx context.Context, key eventstore.Key) error {
		wctx, cancel := context.WithTimeout(ctx, time.Duration(app.Config.ReadWaitLimit)*time.Millisecond)
		defer cancel()
		return app.Runner.WaitFor(wctx, key, projcommunity.Name)
	}
	app.Community = cmdcommunity.New(app.Store, app.Clock, app.Logger, cmdcommunity.Config{Wait: wait})
	return nil
}

// communityRoutes serves community events and comments on the platform API.
func communityRoutes(surface string, r *mux.Router, app *App) {
	if surface != "api" || app.Community == nil || app.Identity == nil {
		return
	}
	readcommunity.Routes(r, readcommunity.Config{Service: app.Community, DB: app.Store.DB(), Auth: app.Auth,
		People: people{app.Identity.Service.Directory()}, BaseURL: app.Config.Issuer})
}

// people answers the community's questions about platform users from the
// identity directory.
type people struct{ dir *accounts.Directory }

// Profile implements readcommunity.People.
func (p people) Profile(userID string) (string, string, bool) {
	u, ok := p.dir.User(userID)
	if !ok {
		return "", "", false
	}
	return u.FullName, p.dir.Picture(userID), true
}

// Administers implements readcommunity.People: an owner or admin of the
// organization, or a platform administrator.
func (p people) Administers(tenant, userID string) bool {
	if u, ok := p.dir.User(userID); ok && u.Role == identity.RoleAdmin {
		return true
	}
	return identity.CanManageMembers(p.dir.Role(tenant, userID))
}

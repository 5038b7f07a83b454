// Package builder serves the builder surface's founder sessions: sign-in
// through the platform's OAuth provider, sign-out, the current founder, and
// the middleware that the builder's session endpoints sit behind.
package builder

import (
	stdsql "database/sql"
	"net/http"
	"strings"

	"github.com/gorilla/mux"

	cmd "github.com/strata-platform/strata/commands/builder"
	"github.com/strata-platform/strata/domain/kernel"
)

// Routes adds the founder-session routes to the builder surface's router.
// secure marks the cookies Secure (the builder is served over https).
func Routes(r *mux.Router, s *cmd.Sessions, db *stdsql.DB, clock kernel.Clock, secure bool) *Founders {
	f := &Founders{sessions: s, db: db, clock: clock, secure: secure}
	r.Handle("/auth/login", http.HandlerFunc(f.login)).Methods(http.MethodGet)
	r.Handle("/auth/callback", http.HandlerFunc(f.callback)).Methods(http.MethodGet)
	r.Handle("/auth/logout", http.HandlerFunc(f.logout)).Methods(http.MethodPost)
	r.Handle("/api/session", f.Require(http.HandlerFunc(f.current))).Methods(http.MethodGet)
	return f
}

// ChatRoutes adds the generation routes to the builder surface's router:
// the stream, versions, restore, export and preview.
func ChatRoutes(r *mux.Router, a *ChatAPI) {
	r.Handle("/api/chat-ws", http.HandlerFunc(a.stream)).Methods(http.MethodPost)
	r.Handle("/api/build/versions", http.HandlerFunc(a.versions)).Methods(http.MethodGet, http.MethodHead)
	r.Handle("/api/build/versions/restore", http.HandlerFunc(a.restore)).Methods(http.MethodPost)
	r.Handle("/api/build/export/{chatId}", http.HandlerFunc(a.export)).Methods(http.MethodGet, http.MethodHead)
	r.Handle("/api/preview/{chatId}", http.HandlerFunc(a.preview))
	r.Handle("/api/preview/{chatId}/{rest:.*}", http.HandlerFunc(a.preview))
}

// SecureURL reports whether a base URL is https.
func SecureURL(base string) bool { return strings.HasPrefix(base, "https://") }

package builder

import (
	"net/http"

	"github.com/gorilla/mux"

	cmd "github.com/strata-platform/strata/commands/builder"
)

// SystemsRoutes adds the business systems and the nightly loop to the
// builder surface: the system cards (no auth, counts only), records posted
// by the founder (session) or the deployed app (company key), the company
// key (session), enrollment and the nightly reports (session).
func SystemsRoutes(r *mux.Router, f *Founders, s *cmd.Systems, n *cmd.Nightly) {
	r.Handle("/api/build/systems", systems(s)).Methods(http.MethodGet, http.MethodHead)
	r.Handle(cmd.RecordsPath, record(f, s)).Methods(http.MethodPost)
	r.Handle("/api/build/systems/key", f.Require(issueKey(s))).Methods(http.MethodPost)
	r.Handle("/api/build/enroll", f.Require(enroll(n))).Methods(http.MethodPost)
	r.Handle("/api/build/nightly", f.Require(nightlyReports(n))).Methods(http.MethodGet, http.MethodHead)
}

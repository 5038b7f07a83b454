// Package captable serves the cap table surface (base path /api/v1): its
// own accounts and tokens, the company's stakeholders, share classes,
// equity grants, SAFEs and valuations, and the cap-table views. Errors use
// the cap table's body {error, message, field, statusCode}; every response
// carries the plan's rate-limit headers.
package captable

import (
	stdsql "database/sql"
	"net/http"

	"github.com/gorilla/mux"

	cmd "github.com/strata-platform/strata/commands/captable"
)

// API is the cap table's HTTP layer.
type API struct {
	svc *cmd.Service
	db  *stdsql.DB
}

// Routes adds every cap-table route to the surface's router, under /api/v1.
func Routes(r *mux.Router, svc *cmd.Service, db *stdsql.DB) *API {
	a := &API{svc: svc, db: db}
	v1 := r.PathPrefix("/api/v1").Subrouter()
	v1.Use(a.limit)
	read, write := func(h http.HandlerFunc) http.Handler { return a.member(false, h) }, func(h http.HandlerFunc) http.Handler { return a.member(true, h) }

	v1.Handle("/auth/register", http.HandlerFunc(a.register)).Methods(http.MethodPost)
	v1.Handle("/auth/login", http.HandlerFunc(a.login)).Methods(http.MethodPost)
	v1.Handle("/auth/refresh", http.HandlerFunc(a.refresh)).Methods(http.MethodPost)
	v1.Handle("/auth/platform-login", http.HandlerFunc(a.platformLogin)).Methods(http.MethodPost)
	v1.Handle("/auth/logout", signedIn(a.logout)).Methods(http.MethodPost)
	v1.Handle("/auth/me", read(a.me)).Methods(http.MethodGet)
	v1.Handle("/agents/onboard", http.HandlerFunc(a.onboard)).Methods(http.MethodPost)

	v1.Handle("/stakeholders", read(a.listStakeholders)).Methods(http.MethodGet)
	v1.Handle("/stakeholders", write(a.createStakeholder)).Methods(http.MethodPost)
	v1.Handle("/stakeholders/{id}", read(a.getStakeholder)).Methods(http.MethodGet)
	v1.Handle("/stakeholders/{id}", write(a.updateStakeholder)).Methods(http.MethodPut)
	v1.Handle("/stakeholders/{id}", write(a.deleteStakeholder)).Methods(http.MethodDelete)

	v1.Handle("/share-classes", read(a.listClasses)).Methods(http.MethodGet)
	v1.Handle("/share-classes", write(a.createClass)).Methods(http.MethodPost)
	v1.Handle("/share-classes/{id}", read(a.getClass)).Methods(http.MethodGet)
	v1.Handle("/share-classes/{id}", write(a.updateClass)).Methods(http.MethodPut)

	v1.Handle("/equity-grants", read(a.listGrants)).Methods(http.MethodGet)
	v1.Handle("/equity-grants", write(a.createGrant)).Methods(http.MethodPost)
	v1.Handle("/equity-grants/{id}", read(a.getGrant)).Methods(http.MethodGet)
	v1.Handle("/equity-grants/{id}", write(a.updateGrant)).Methods(http.MethodPut)
	v1.Handle("/equity-grants/{id}/vesting", read(a.grantVesting)).Methods(http.MethodGet)
	v1.Handle("/equity-grants/{id}/accept", write(a.acceptGrant)).Methods(http.MethodPost)
	v1.Handle("/equity-grants/{id}/exercise", write(a.exerciseGrant)).Methods(http.MethodPost)
	v1.Handle("/equity-grants/{id}/terminate", write(a.terminateGrant)).Methods(http.MethodPost)
	v1.Handle("/equity-grants/{id}/cancel", write(a.cancelGrant)).Methods(http.MethodPost)

	v1.Handle("/safes", read(a.listSAFEs)).Methods(http.MethodGet)
	v1.Handle("/safes", write(a.createSAFE)).Methods(http.MethodPost)
	v1.Handle("/safes/{id}", read(a.getSAFE)).Methods(http.MethodGet)
	v1.Handle("/safes/{id}", write(a.updateSAFE)).Methods(http.MethodPut)
	v1.Handle("/safes/{id}/elect-mfn", write(a.electMFN)).Methods(http.MethodPost)

	v1.Handle("/valuations", read(a.listValuations)).Methods(http.MethodGet)
	v1.Handle("/valuations", write(a.createValuation)).Methods(http.MethodPost)
	v1.Handle("/valuations/latest", read(a.latestValuation)).Methods(http.MethodGet)
	v1.Handle("/valuations/{id}", read(a.getValuation)).Methods(http.MethodGet)

	v1.Handle("/documents", read(a.listDocuments)).Methods(http.MethodGet)
	v1.Handle("/documents", write(a.uploadDocument)).Methods(http.MethodPost)
	v1.Handle("/documents/{id}", read(a.getDocument)).Methods(http.MethodGet)
	v1.Handle("/documents/{id}", write(a.deleteDocument)).Methods(http.MethodDelete)
	v1.Handle("/documents/{id}/download", read(a.downloadDocument)).Methods(http.MethodGet)

	v1.Handle("/financial-reports", read(a.listReports)).Methods(http.MethodGet)
	v1.Handle("/financial-reports", read(a.createReport)).Methods(http.MethodPost)
	v1.Handle("/financial-reports/{id}", read(a.getReport)).Methods(http.MethodGet)
	v1.Handle("/financial-reports/{id}/download", read(a.downloadReport)).Methods(http.MethodGet)

	v1.Handle("/cap-table", read(a.capTable)).Methods(http.MethodGet)
	v1.Handle("/cap-table/fully-diluted", read(a.fullyDiluted)).Methods(http.MethodGet)
	v1.Handle("/cap-table/dilution", read(a.dilution)).Methods(http.MethodPost)
	v1.Handle("/cap-table/dilution/commit", write(a.commitRound)).Methods(http.MethodPost)
	v1.Handle("/cap-table/waterfall", read(a.waterfall)).Methods(http.MethodPost)

	r.Handle("/openapi.json", http.HandlerFunc(OpenAPI)).Methods(http.MethodGet)
	v1.Handle("/openapi.json", http.HandlerFunc(OpenAPI)).Methods(http.MethodGet)
	return a
}

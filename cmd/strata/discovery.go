package main

import (
	"github.com/gorilla/mux"

	"github.com/strata-platform/strata/readapi/discovery"
)

// discoveryRoutes serves, on the platform API only, what agents read first:
// the home page, /llms.txt, /robots.txt, /sitemap.xml, the RFC 9727
// api-catalog, the OpenAPI description and /docs, with absolute links on
// the API's public URL (STRATA_PUBLIC_URL).
func discoveryRoutes(surface string, r *mux.Router, app *App) {
	if surface != "api" {
		return
	}
	discovery.Routes(r, discovery.Config{PublicURL: app.Config.Issuer})
}

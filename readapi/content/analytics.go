package content

import (
	"net/http"

	"github.com/strata-platform/strata/domain/kernel"
)

func (a *API) analytics(w http.ResponseWriter, r *http.Request, c caller) {
	writeErr(w, r, kernel.Unavailable("analytics are not built yet", nil))
}

func (a *API) summary(w http.ResponseWriter, r *http.Request, c caller) {
	writeErr(w, r, kernel.Unavailable("analytics are not built yet", nil))
}

func (a *API) export(w http.ResponseWriter, r *http.Request, c caller) {
	writeErr(w, r, kernel.Unavailable("analytics are not built yet", nil))
}

func (a *API) download(w http.ResponseWriter, r *http.Request) {
	writeErr(w, r, kernel.Unavailable("downloads are not built yet", nil))
}

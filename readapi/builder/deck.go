package builder

import (
	"fmt"
	"net/http"

	"github.com/gorilla/mux"

	cmd "github.com/strata-platform/strata/commands/builder"
	"github.com/strata-platform/strata/domain/builder/deck"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/readapi/httpx"
)

// DeckRoutes adds GET /api/build/deck (session) to the builder.
func DeckRoutes(r *mux.Router, f *Founders, c *cmd.Chats, src cmd.DeckSources) {
	r.Handle("/api/build/deck", f.Require(deckHandler(c, src))).Methods(http.MethodGet, http.MethodHead)
}

// deckHandler serves GET /api/build/deck?companyId=&format=pptx|txt: the
// company's pitch deck as an editable PowerPoint file (default) or as
// text; 402 plan_required without a paid plan.
func deckHandler(c *cmd.Chats, src cmd.DeckSources) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		format := q.Get("format")
		if format == "" {
			format = "pptx"
		}
		if format != "pptx" && format != "txt" {
			httpx.WriteError(w, r, kernel.Invalid("format", "oneof:pptx,txt", "format must be pptx or txt"))
			return
		}
		s, _ := Founder(r.Context())
		d, err := c.Deck(r.Context(), s.UserID, q.Get("companyId"), src)
		if err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		name := q.Get("companyId") + "-deck." + format
		var body []byte
		if format == "txt" {
			body = deck.Text(d)
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		} else {
			if body, err = deck.PPTX(d); err != nil {
				httpx.WriteError(w, r, fmt.Errorf("deck: %w", err))
				return
			}
			w.Header().Set("Content-Type", "application/vnd.openxmlformats-officedocument.presentationml.presentation")
		}
		w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s"`, name))
		w.Header().Set("Content-Length", fmt.Sprint(len(body)))
		w.Header().Set("Cache-Control", "no-store")
		_, _ = w.Write(body)
	})
}

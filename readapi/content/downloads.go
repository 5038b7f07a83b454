package content

import (
	"errors"
	"mime"
	"net/http"
	"os"
	"time"

	"github.com/gorilla/mux"

	"github.com/strata-platform/strata/commands/blobs"
	"github.com/strata-platform/strata/domain/kernel"
)

// download serves GET /downloads/{token}, without credentials: the token
// is a link signed by the platform (an export's download_url). A token
// that was not signed here or was altered is 403, one whose hour is up
// 410 (also when its file is no longer stored); otherwise the file is
// sent as an attachment under its name, never cached by anyone but the
// client (Range requests are honoured).
func (a *API) download(w http.ResponseWriter, r *http.Request) {
	if a.cfg.Links == nil || a.cfg.Blobs == nil {
		writeErr(w, r, kernel.Unavailable("downloads are not configured", nil))
		return
	}
	link, err := a.cfg.Links.Verify(mux.Vars(r)["token"])
	switch {
	case errors.Is(err, blobs.ErrLinkExpired):
		writeErr(w, r, kernel.E(kernel.KindGone, "this download link expired at "+link.Expires.UTC().Format(time.RFC3339)+
			"; export again for a new link"))
		return
	case err != nil:
		writeErr(w, r, kernel.Forbidden("this download link is not valid"))
		return
	}
	b, err := a.cfg.Blobs.Open(r.Context(), link.Owner, link.Digest)
	if errors.Is(err, os.ErrNotExist) {
		writeErr(w, r, kernel.E(kernel.KindGone, "the file of this download link is no longer stored"))
		return
	}
	if err != nil {
		writeErr(w, r, err)
		return
	}
	defer b.Close()
	h := w.Header()
	ctype := link.Type
	if ctype == "" {
		ctype = "application/octet-stream"
	}
	h.Set("Content-Type", ctype)
	name := link.Name
	if name == "" {
		name = "download"
	}
	h.Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": name}))
	h.Set("Cache-Control", "private, no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	http.ServeContent(w, r, "", b.ModTime(), b)
}

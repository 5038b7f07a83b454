package captable

import (
	"errors"
	"fmt"
	"mime"
	"net/http"
	"os"
	"slices"

	"github.com/strata-platform/strata/domain/captable"
	"github.com/strata-platform/strata/domain/kernel"
	proj "github.com/strata-platform/strata/projections/captable"
	"github.com/strata-platform/strata/readapi/httpx"
)

// uploadMemory is how much of a multipart upload is held in memory; the
// rest spills to a temporary file until the blob store takes it.
const uploadMemory = 1 << 20

func (a *API) listDocuments(w http.ResponseWriter, r *http.Request) {
	c, _ := callerFrom(r.Context())
	p, err := page(r)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	q := r.URL.Query()
	f := proj.DocumentFilter{Type: q.Get("type"), StakeholderID: q.Get("stakeholderId"), GrantID: q.Get("grantId")}
	if f.Type != "" && !slices.Contains(captable.DocumentTypes(), f.Type) {
		httpx.WriteError(w, r, kernel.Invalid("type", "one_of", "type must be one of the document types"))
		return
	}
	data, total, err := proj.Documents(r.Context(), a.db, c.Company, p, f)
	writeList(w, r, p, data, total, err)
}

func (a *API) getDocument(w http.ResponseWriter, r *http.Request) {
	c, _ := callerFrom(r.Context())
	v, err := proj.Document(r.Context(), a.db, c.Company, id(r))
	writeOne(w, r, http.StatusOK, "document", v, err)
}

// uploadDocument takes multipart/form-data: file (required), type
// (required), stakeholderId and grantId (optional).
func (a *API) uploadDocument(w http.ResponseWriter, r *http.Request) {
	c, _ := callerFrom(r.Context())
	if err := r.ParseMultipartForm(uploadMemory); err != nil {
		httpx.WriteError(w, r, multipartError(err, a.svc.MaxUpload()))
		return
	}
	defer r.MultipartForm.RemoveAll() //nolint:errcheck // temporary files only
	file, header, err := r.FormFile("file")
	if err != nil {
		httpx.WriteError(w, r, kernel.Invalid("file", "required", "file is required (a multipart file part named file)"))
		return
	}
	defer file.Close()
	// Fields come from the body only, never from the query string.
	in := captable.DocumentInput{Name: header.Filename, Type: r.PostFormValue("type"), StakeholderID: r.PostFormValue("stakeholderId"),
		GrantID: r.PostFormValue("grantId")}
	for _, f := range [][2]string{{"file", in.Name}, {"type", in.Type}, {"stakeholderId", in.StakeholderID}, {"grantId", in.GrantID}} {
		if err := httpx.CheckString(f[0], f[1]); err != nil { // a multipart body is not seen by httpx.CheckText
			httpx.WriteError(w, r, err)
			return
		}
	}
	did := a.svc.NewID()
	app, err := a.svc.UploadDocument(r.Context(), c.Company, did, in, file, c.AccountID)
	if err == nil {
		err = a.settled(r, app)
	}
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	v, err := proj.Document(r.Context(), a.db, c.Company, did)
	writeOne(w, r, http.StatusCreated, "document", v, err)
}

// multipartError turns a multipart parse failure into a refusal.
func multipartError(err error, max int64) error {
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &mbe):
		return &kernel.Error{Kind: kernel.KindTooLarge, Field: "file", Rule: "max_size", Message: fmt.Sprintf("the file must be at most %d bytes", max)}
	case errors.Is(err, http.ErrNotMultipart):
		return &kernel.Error{Kind: kernel.KindUnsupportedMediaType, Field: "file", Rule: "multipart",
			Message: "upload a document as multipart/form-data with a file part named file"}
	}
	return kernel.Invalid("file", "multipart", "the multipart body could not be read: "+err.Error())
}

// downloadDocument streams the original bytes with their content type;
// Range and conditional requests work (the ETag is the SHA-256).
func (a *API) downloadDocument(w http.ResponseWriter, r *http.Request) {
	c, _ := callerFrom(r.Context())
	v, err := proj.Document(r.Context(), a.db, c.Company, id(r))
	if err = notFoundAs(err, "document", id(r)); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	serveBlob(w, r, a, c.Company, v.SHA256, v.Name, v.ContentType)
}

// serveBlob streams a company's stored file as an attachment.
func serveBlob(w http.ResponseWriter, r *http.Request, a *API, company, digest, name, contentType string) {
	f, err := a.svc.OpenBlob(r.Context(), company, digest)
	if errors.Is(err, os.ErrNotExist) {
		err = kernel.Unavailable("the file's bytes are missing from the blob store", err)
	}
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	defer f.Close()
	h := w.Header()
	h.Set("Content-Type", contentType)
	h.Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": name}))
	h.Set("ETag", `"`+digest+`"`)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "private, no-cache")
	http.ServeContent(w, r, "", f.ModTime(), f)
}

func (a *API) deleteDocument(w http.ResponseWriter, r *http.Request) {
	c, _ := callerFrom(r.Context())
	app, err := a.svc.DeleteDocument(r.Context(), c.Company, id(r), c.AccountID)
	if err == nil {
		err = a.settled(r, app)
	}
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// BodyLimit is the surface's body limit override for document uploads:
// the document size limit plus room for the multipart envelope. Other
// requests keep the surface's limit (0).
func BodyLimit(maxUpload int64) func(r *http.Request) int64 {
	return func(r *http.Request) int64 {
		if r.Method == http.MethodPost && r.URL.Path == "/api/v1/documents" {
			return maxUpload + uploadMemory
		}
		return 0
	}
}

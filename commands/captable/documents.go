package captable

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/strata-platform/strata/commands/blobs"
	"github.com/strata-platform/strata/domain/captable"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
)

// DefaultMaxUpload is the document size limit when Config.MaxUploadBytes is 0.
const DefaultMaxUpload = 25 << 20

// Content types a document may have: PDF, PNG, JPEG, plain text, CSV, and
// Word and Excel documents (OOXML). The type is sniffed from the bytes (and
// the extension, for the formats that are ZIP or text underneath); what the
// client declares is not trusted.
const (
	TypePDF  = "application/pdf"
	TypePNG  = "image/png"
	TypeJPEG = "image/jpeg"
	TypeText = "text/plain; charset=utf-8"
	TypeCSV  = "text/csv; charset=utf-8"
	TypeDOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
	TypeXLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
)

// AllowedContentTypes lists the document content types.
var AllowedContentTypes = []string{TypePDF, TypePNG, TypeJPEG, TypeText, TypeCSV, TypeDOCX, TypeXLSX}

// DetectContentType names a document's content type from its name and
// first bytes, or refuses it (415).
func DetectContentType(name string, head []byte) (string, error) {
	ext := strings.ToLower(filepath.Ext(name))
	sniffed := http.DetectContentType(head)
	switch {
	case sniffed == TypePDF, sniffed == TypePNG, sniffed == TypeJPEG:
		return sniffed, nil
	case sniffed == "application/zip" && ext == ".docx":
		return TypeDOCX, nil
	case sniffed == "application/zip" && ext == ".xlsx":
		return TypeXLSX, nil
	case strings.HasPrefix(sniffed, "text/plain") && ext == ".csv":
		return TypeCSV, nil
	case strings.HasPrefix(sniffed, "text/plain") && (ext == ".txt" || ext == ".md" || ext == ""):
		return TypeText, nil
	}
	return "", &kernel.Error{Kind: kernel.KindUnsupportedMediaType, Field: "file", Rule: "content_type", Message: fmt.Sprintf(
		"the file's content (%s, name %q) is not an allowed document type: PDF, PNG, JPEG, plain text (.txt), CSV (.csv), Word (.docx) or Excel (.xlsx)",
		sniffed, name)}
}

// MaxUpload is the document size limit in bytes.
func (s *Service) MaxUpload() int64 {
	if s.cfg.MaxUploadBytes > 0 {
		return s.cfg.MaxUploadBytes
	}
	return DefaultMaxUpload
}

// UploadDocument stores a document's bytes and records it: the file is
// staged and hashed first, then, under the company's blob lock
// (bloblock.go) and its lock, checked, committed to the blob store and
// recorded in one decision. A refused upload leaves no file behind; a
// crash between the commit and the append leaves an unreferenced file,
// never a record without its bytes.
func (s *Service) UploadDocument(ctx context.Context, company, id string, in captable.DocumentInput, file io.Reader, by string) (eventstore.Appended, error) {
	if s.cfg.Blobs == nil {
		return eventstore.Appended{}, kernel.Unavailable("document storage is not configured", nil)
	}
	staged, err := s.cfg.Blobs.Stage(ctx, company, file, s.MaxUpload())
	if errors.Is(err, blobs.ErrTooLarge) {
		return eventstore.Appended{}, &kernel.Error{Kind: kernel.KindTooLarge, Field: "file", Rule: "max_size",
			Message: fmt.Sprintf("the file must be at most %d bytes", s.MaxUpload())}
	}
	if err != nil {
		return eventstore.Appended{}, err
	}
	defer staged.Discard() //nolint:errcheck // gone already once committed
	if staged.Size == 0 {
		return eventstore.Appended{}, kernel.Invalid("file", "not_empty", "the file is empty")
	}
	ct, err := DetectContentType(in.Name, staged.Head)
	if err != nil {
		return eventstore.Appended{}, err
	}
	in.ContentType, in.Size, in.SHA256 = ct, staged.Size, staged.SHA256
	var app eventstore.Appended
	err = s.withBlobLock(ctx, company, func() (err error) {
		app, err = s.Do(ctx, company, func(c *captable.Company) ([]kernel.Event, error) {
			evs, err := c.UploadDocument(id, in, by, s.clock.Now())
			if err != nil {
				return nil, err
			}
			return evs, commitBlob(ctx, staged)
		})
		return err
	})
	return app, err
}

// DeleteDocument records a document's deletion and removes its bytes once
// nothing of the company refers to them any more (under the company's
// blob lock, so an upload of equal bytes in any process cannot slip in
// between).
func (s *Service) DeleteDocument(ctx context.Context, company, id, by string) (eventstore.Appended, error) {
	var digest string
	app, err := s.Do(ctx, company, func(c *captable.Company) ([]kernel.Event, error) {
		if d := c.Documents[id]; d != nil {
			digest = d.SHA256
		}
		return c.DeleteDocument(id, by, s.clock.Now())
	})
	if err != nil || s.cfg.Blobs == nil {
		return app, err
	}
	err = s.withBlobLock(ctx, company, func() error {
		return s.View(ctx, company, func(c *captable.Company) error {
			if c.Referenced(digest) {
				return nil
			}
			return s.cfg.Blobs.Remove(ctx, company, digest)
		})
	})
	if err != nil { // the deletion is recorded; the bytes stay unreferenced
		s.log.Warn("document deleted, its bytes not removed", "company", company, "sha256", digest, "err", err)
	}
	return app, nil
}

// commitBlob commits staged bytes; a store that fails (an S3 endpoint
// down) makes the command unavailable, to be retried, and records nothing.
func commitBlob(ctx context.Context, staged *blobs.Staged) error {
	if err := staged.Commit(ctx); err != nil {
		return kernel.Unavailable("the blob store could not keep the file; retry shortly", err)
	}
	return nil
}

// OpenBlob opens a company's stored file by digest; a missing file is an
// error satisfying errors.Is(err, os.ErrNotExist).
func (s *Service) OpenBlob(ctx context.Context, company, digest string) (blobs.Blob, error) {
	if s.cfg.Blobs == nil {
		return nil, kernel.Unavailable("document storage is not configured", nil)
	}
	b, err := s.cfg.Blobs.Open(ctx, company, digest)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, kernel.Unavailable("the blob store could not be read; retry shortly", err)
	}
	return b, err
}

package hackathon

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"

	"github.com/strata-platform/strata/commands/blobs"
	"github.com/strata-platform/strata/domain/hackathon"
	"github.com/strata-platform/strata/domain/kernel"
)

// DefaultMaxFile is a submission file's size limit when
// Config.MaxFileBytes is 0.
const DefaultMaxFile = 25 << 20

// MaxFileBytes is a submission file's size limit.
func (s *Service) MaxFileBytes() int64 {
	if s.cfg.MaxFileBytes > 0 {
		return s.cfg.MaxFileBytes
	}
	return DefaultMaxFile
}

// File types a submission may carry, sniffed from the bytes (the declared
// type is not trusted): PDF, PNG, JPEG, GIF, WebP, MP4, ZIP, plain text
// and Markdown.
var fileTypes = map[string]bool{"application/pdf": true, "image/png": true, "image/jpeg": true, "image/gif": true,
	"image/webp": true, "video/mp4": true, "application/zip": true}

// DetectFileType names a submission file's type from its first bytes (and
// its extension for text), or refuses it (415).
func DetectFileType(name string, head []byte) (string, error) {
	sniffed := http.DetectContentType(head)
	base, _, _ := strings.Cut(sniffed, ";")
	if fileTypes[base] {
		return base, nil
	}
	if base == "text/plain" {
		if strings.EqualFold(filepath.Ext(name), ".md") {
			return "text/markdown; charset=utf-8", nil
		}
		return "text/plain; charset=utf-8", nil
	}
	return "", &kernel.Error{Kind: kernel.KindUnsupportedMediaType, Field: "file", Rule: "content_type", Message: fmt.Sprintf(
		"the file's content (%s) is not an allowed type: PDF, PNG, JPEG, GIF, WebP, MP4, ZIP, plain text or Markdown", sniffed)}
}

// AttachFile stores a file's bytes and records it on a submission: the
// bytes are staged and hashed, the attachment checked, the bytes committed
// to the blob store and the file recorded in one decision. A refused
// upload stores nothing; a crash between the commit and the append leaves
// an unreferenced blob, never a record without its bytes.
func (s *Service) AttachFile(ctx context.Context, id, submissionID, by, name string, r io.Reader) (hackathon.File, error) {
	if s.cfg.Blobs == nil {
		return hackathon.File{}, kernel.Unavailable("file storage is not configured", nil)
	}
	name = filepath.Base(strings.TrimSpace(name))
	if name == "." || name == "/" || name == "" {
		name = "file"
	}
	name, err := checkFileName(name)
	if err != nil {
		return hackathon.File{}, err
	}
	// Refuse early (before reading the body) what the decision would refuse.
	if err := s.View(ctx, id, by, func(h *hackathon.Hackathon) error { return h.CanAttach(by, submissionID) }); err != nil {
		return hackathon.File{}, err
	}
	staged, err := s.cfg.Blobs.Stage(ctx, id, r, s.MaxFileBytes())
	if errors.Is(err, blobs.ErrTooLarge) {
		return hackathon.File{}, &kernel.Error{Kind: kernel.KindTooLarge, Field: "file", Rule: "max_size",
			Message: fmt.Sprintf("the file must be at most %d bytes", s.MaxFileBytes())}
	}
	if err != nil {
		return hackathon.File{}, err
	}
	defer staged.Discard() //nolint:errcheck // gone already once committed
	if staged.Size == 0 {
		return hackathon.File{}, kernel.Invalid("file", "not_empty", "the file is empty")
	}
	ct, err := DetectFileType(name, staged.Head)
	if err != nil {
		return hackathon.File{}, err
	}
	f := hackathon.File{FileID: NewID(), Name: name, ContentType: ct, Size: staged.Size, SHA256: staged.SHA256}
	_, err = s.Do(ctx, id, by, false, func(h *hackathon.Hackathon) ([]kernel.Event, error) {
		evs, err := h.AttachFile(by, submissionID, f, s.Now())
		if err != nil {
			return nil, err
		}
		if err := staged.Commit(ctx); err != nil {
			return nil, kernel.Unavailable("the file could not be stored; try again", err)
		}
		return evs, nil
	})
	return f, err
}

// OpenFile opens a stored submission file for download.
func (s *Service) OpenFile(ctx context.Context, id, digest string) (blobs.Blob, error) {
	if s.cfg.Blobs == nil {
		return nil, kernel.Unavailable("file storage is not configured", nil)
	}
	return s.cfg.Blobs.Open(ctx, id, digest)
}

func checkFileName(name string) (string, error) {
	if len([]rune(name)) > 255 {
		return "", kernel.Invalid("file", "filename_max_length:255", "the file name must be at most 255 characters")
	}
	for _, r := range name {
		if r < 0x20 || r == 0x7f {
			return "", kernel.Invalid("file", "filename", "the file name must not contain control characters")
		}
	}
	return name, nil
}

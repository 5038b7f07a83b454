package captable

import (
	"fmt"
	"strings"
	"time"
	"unicode"

	"github.com/strata-platform/strata/domain/kernel"
)

// Document types.
var documentTypes = []string{"GRANT_AGREEMENT", "STOCK_CERTIFICATE", "SAFE_AGREEMENT", "BOARD_CONSENT", "STOCKHOLDER_CONSENT",
	"OPTION_PLAN", "VALUATION_REPORT", "ARTICLES", "BYLAWS", "SIDE_LETTER", "TAX_FORM", "OTHER"}

// DocumentTypes lists the document types.
func DocumentTypes() []string { return append([]string(nil), documentTypes...) }

// Document is an uploaded file's record: the bytes live in the blob store
// under SHA256; the event never carries them.
type Document struct {
	ID            string    `json:"documentId"`
	Name          string    `json:"name"`
	Type          string    `json:"type"`
	ContentType   string    `json:"contentType"`
	Size          int64     `json:"size"`
	SHA256        string    `json:"sha256"`
	StakeholderID string    `json:"stakeholderId,omitempty"`
	GrantID       string    `json:"grantId,omitempty"`
	UploadedBy    string    `json:"uploadedBy"`
	At            time.Time `json:"at"`
}

// DocumentUploaded records a document (reference data: not dated).
type DocumentUploaded struct {
	Document
}

// DocumentDeleted removes a document from every view and download.
type DocumentDeleted struct {
	DocumentID string    `json:"documentId"`
	By         string    `json:"deletedBy"`
	At         time.Time `json:"at"`
}

func (DocumentUploaded) EventType() string { return "captable.document_uploaded" }
func (DocumentDeleted) EventType() string  { return "captable.document_deleted" }

// DocumentState is a document and whether it was deleted.
type DocumentState struct {
	Document
	Deleted bool
}

// DocumentInput is an upload's fields, the file already staged.
type DocumentInput struct {
	Name          string
	Type          string
	ContentType   string
	Size          int64
	SHA256        string
	StakeholderID string
	GrantID       string
}

// maxDocumentName bounds a document's file name, in bytes.
const maxDocumentName = 255

// UploadDocument records a document. A grant and a stakeholder, when both
// named, must agree (the grant is the stakeholder's).
func (c *Company) UploadDocument(id string, in DocumentInput, by string, now time.Time) ([]kernel.Event, error) {
	if err := oneOf("type", in.Type, documentTypes); err != nil {
		return nil, err
	}
	name := cleanName(in.Name)
	if name == "" {
		return nil, kernel.Invalid("file", "filename", "the file part must carry a file name")
	}
	if len(name) > maxDocumentName {
		return nil, kernel.Invalid("file", "filename_length", fmt.Sprintf("the file name must be at most %d bytes", maxDocumentName))
	}
	if in.StakeholderID != "" {
		if s := c.Stakeholders[in.StakeholderID]; s == nil || s.Removed {
			return nil, kernel.Invalid("stakeholderId", "exists", "stakeholderId names no stakeholder of this company")
		}
	}
	if in.GrantID != "" {
		g := c.Grants[in.GrantID]
		if g == nil {
			return nil, kernel.Invalid("grantId", "exists", "grantId names no equity grant of this company")
		}
		if in.StakeholderID != "" && g.StakeholderID != in.StakeholderID {
			return nil, kernel.Invalid("grantId", "stakeholder_grant", "grantId names a grant of another stakeholder than stakeholderId")
		}
	}
	return []kernel.Event{&DocumentUploaded{Document{ID: id, Name: name, Type: in.Type, ContentType: in.ContentType, Size: in.Size,
		SHA256: in.SHA256, StakeholderID: in.StakeholderID, GrantID: in.GrantID, UploadedBy: by, At: now}}}, nil
}

// DeleteDocument removes a document.
func (c *Company) DeleteDocument(id, by string, now time.Time) ([]kernel.Event, error) {
	d := c.Documents[id]
	if d == nil || d.Deleted {
		return nil, notFound("document", id)
	}
	return []kernel.Event{&DocumentDeleted{DocumentID: id, By: by, At: now}}, nil
}

// Referenced reports whether a live document (or a report) still refers to
// content with the given digest.
func (c *Company) Referenced(digest string) bool {
	for _, d := range c.Documents {
		if !d.Deleted && d.SHA256 == digest {
			return true
		}
	}
	for _, r := range c.Reports {
		if r.SHA256 == digest {
			return true
		}
	}
	return false
}

// cleanName keeps a file name's last path element, without control
// characters or surrounding space.
func cleanName(s string) string {
	if i := strings.LastIndexAny(s, `/\`); i >= 0 {
		s = s[i+1:]
	}
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return -1
		}
		return r
	}, s)
	return strings.TrimSpace(s)
}

package captable

import (
	"context"
	stdsql "database/sql"
	"time"

	"github.com/strata-platform/strata/domain/captable"
	"github.com/strata-platform/strata/eventstore"
)

// applyFile projects documents and financial reports; ok is false for
// other events.
func applyFile(ctx context.Context, tx *stdsql.Tx, e eventstore.Envelope) (ok bool, err error) {
	switch ev := e.Event.(type) {
	case *captable.DocumentUploaded:
		d := ev.Document
		_, err = tx.ExecContext(ctx, `INSERT INTO documents (document_id, company_id, seq, name, type, content_type, size, sha256,
			stakeholder_id, grant_id, uploaded_by, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
			ON CONFLICT (document_id) DO NOTHING`, d.ID, e.StreamID, e.Position, d.Name, d.Type, d.ContentType, d.Size, d.SHA256,
			d.StakeholderID, d.GrantID, d.UploadedBy, d.At)
	case *captable.DocumentDeleted:
		_, err = tx.ExecContext(ctx, `UPDATE documents SET deleted = true, deleted_at = $2 WHERE document_id = $1`, ev.DocumentID, ev.At)
	case *captable.ReportGenerated:
		r := ev.FinancialReport
		_, err = tx.ExecContext(ctx, `INSERT INTO financial_reports (report_id, company_id, seq, type, format, as_of_date,
			based_on_version, content_type, size, sha256, filename, generated_by, created_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) ON CONFLICT (report_id) DO NOTHING`,
			r.ID, e.StreamID, e.Position, r.Type, r.Format, r.AsOfDate, r.BasedOnVersion, r.ContentType, r.Size, r.SHA256,
			r.Filename, r.GeneratedBy, r.At)
	default:
		return false, nil
	}
	return true, err
}

// DocumentView is a document as the API shows it.
type DocumentView struct {
	ID            string    `json:"id"`
	CompanyID     string    `json:"companyId"`
	Name          string    `json:"name"`
	Type          string    `json:"type"`
	ContentType   string    `json:"contentType"`
	Size          int64     `json:"size"`
	SHA256        string    `json:"sha256"`
	StakeholderID *string   `json:"stakeholderId"`
	GrantID       *string   `json:"grantId"`
	UploadedBy    string    `json:"uploadedBy"`
	CreatedAt     time.Time `json:"createdAt"`
	DownloadURL   string    `json:"downloadUrl"`
}

const documentCols = `document_id, company_id, name, type, content_type, size, sha256, stakeholder_id, grant_id, uploaded_by, created_at`

func scanDocument(row interface{ Scan(...any) error }) (DocumentView, error) {
	var v DocumentView
	var stakeholder, grant string
	err := row.Scan(&v.ID, &v.CompanyID, &v.Name, &v.Type, &v.ContentType, &v.Size, &v.SHA256, &stakeholder, &grant, &v.UploadedBy, &v.CreatedAt)
	v.StakeholderID, v.GrantID = optional(stakeholder), optional(grant)
	v.DownloadURL = "/api/v1/documents/" + v.ID + "/download"
	return v, err
}

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// DocumentFilter narrows a document list; empty fields do not filter.
type DocumentFilter struct{ Type, StakeholderID, GrantID string }

// Documents lists a company's documents (not deleted) in upload order.
func Documents(ctx context.Context, db *stdsql.DB, company string, p Page, f DocumentFilter) ([]DocumentView, int, error) {
	return list(ctx, db, `SELECT `+documentCols+` FROM `+schema+`documents WHERE company_id = $1 AND NOT deleted
		AND ($4 = '' OR type = $4) AND ($5 = '' OR stakeholder_id = $5) AND ($6 = '' OR grant_id = $6)
		ORDER BY seq LIMIT $2 OFFSET $3`, `SELECT count(*) FROM `+schema+`documents WHERE company_id = $1 AND NOT deleted
		AND ($2 = '' OR type = $2) AND ($3 = '' OR stakeholder_id = $3) AND ($4 = '' OR grant_id = $4)`,
		company, p, scanDocument, f.Type, f.StakeholderID, f.GrantID)
}

// Document returns one document of the company (not deleted).
func Document(ctx context.Context, db *stdsql.DB, company, id string) (DocumentView, error) {
	return one(db.QueryRowContext(ctx, `SELECT `+documentCols+` FROM `+schema+`documents
		WHERE company_id = $1 AND document_id = $2 AND NOT deleted`, company, id), scanDocument)
}

// ReportView is a financial report's record as the API shows it.
type ReportView struct {
	ID             string       `json:"id"`
	CompanyID      string       `json:"companyId"`
	Type           string       `json:"type"`
	Format         string       `json:"format"`
	AsOfDate       captable.Day `json:"asOfDate"`
	BasedOnVersion int64        `json:"basedOnVersion"`
	ContentType    string       `json:"contentType"`
	Size           int64        `json:"size"`
	SHA256         string       `json:"sha256"`
	Filename       string       `json:"filename"`
	GeneratedBy    string       `json:"generatedBy"`
	CreatedAt      time.Time    `json:"createdAt"`
	DownloadURL    string       `json:"downloadUrl"`
}

const reportCols = `report_id, company_id, type, format, as_of_date, based_on_version, content_type, size, sha256, filename,
	generated_by, created_at`

func scanReport(row interface{ Scan(...any) error }) (ReportView, error) {
	var v ReportView
	var d time.Time
	err := row.Scan(&v.ID, &v.CompanyID, &v.Type, &v.Format, &d, &v.BasedOnVersion, &v.ContentType, &v.Size, &v.SHA256,
		&v.Filename, &v.GeneratedBy, &v.CreatedAt)
	v.AsOfDate = captable.DayOf(d)
	v.DownloadURL = "/api/v1/financial-reports/" + v.ID + "/download"
	return v, err
}

// Reports lists a company's financial reports, newest first, optionally of
// one type.
func Reports(ctx context.Context, db *stdsql.DB, company string, p Page, typ string) ([]ReportView, int, error) {
	return list(ctx, db, `SELECT `+reportCols+` FROM `+schema+`financial_reports WHERE company_id = $1 AND ($4 = '' OR type = $4)
		ORDER BY seq DESC LIMIT $2 OFFSET $3`, `SELECT count(*) FROM `+schema+`financial_reports WHERE company_id = $1
		AND ($2 = '' OR type = $2)`, company, p, scanReport, typ)
}

// Report returns one financial report of the company.
func Report(ctx context.Context, db *stdsql.DB, company, id string) (ReportView, error) {
	return one(db.QueryRowContext(ctx, `SELECT `+reportCols+` FROM `+schema+`financial_reports
		WHERE company_id = $1 AND report_id = $2`, company, id), scanReport)
}

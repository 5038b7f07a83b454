package captable

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"

	"github.com/strata-platform/strata/domain/captable"
	"github.com/strata-platform/strata/domain/captable/reports"
	"github.com/strata-platform/strata/domain/kernel"
	proj "github.com/strata-platform/strata/projections/captable"
	"github.com/strata-platform/strata/readapi/captable/reportfmt"
	"github.com/strata-platform/strata/readapi/httpx"
)

// reportInput is the body of POST /financial-reports.
type reportInput struct {
	Type     string       `json:"type"`
	Format   string       `json:"format"`
	AsOfDate captable.Day `json:"asOfDate"`
}

// reportBody is a report's record, with the report itself inline when its
// format is json.
type reportBody struct {
	proj.ReportView
	Report json.RawMessage `json:"report,omitempty"`
}

// maxInlineReport bounds the JSON report inlined in a response; larger
// ones are only downloaded.
const maxInlineReport = 4 << 20

func (a *API) listReports(w http.ResponseWriter, r *http.Request) {
	c, _ := callerFrom(r.Context())
	p, err := page(r)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	typ := r.URL.Query().Get("type")
	if typ != "" && !reports.ValidType(typ) {
		httpx.WriteError(w, r, kernel.Invalid("type", "one_of", "type must be one of "+strings.Join(reports.Types, ", ")))
		return
	}
	data, total, err := proj.Reports(r.Context(), a.db, c.Company, p, typ)
	writeList(w, r, p, data, total, err)
}

// createReport builds the report from the company's stream as recorded
// now, as of asOfDate (default today), renders it, stores the file and
// records it.
func (a *API) createReport(w http.ResponseWriter, r *http.Request) {
	c, _ := callerFrom(r.Context())
	var in reportInput
	if err := httpx.DecodeJSON(r, &in); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	if in.Format == "" {
		in.Format = "json"
	}
	today := a.today()
	if in.AsOfDate.IsZero() {
		in.AsOfDate = captable.DayOf(today)
	}
	if in.AsOfDate.After(today) {
		httpx.WriteError(w, r, kernel.Invalid("asOfDate", "not_future", "asOfDate must not be in the future"))
		return
	}
	req := reports.Request{Type: in.Type, AsOf: in.AsOfDate.Time, GeneratedAt: a.svc.Now()}
	if err := req.Validate(); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	if err := captable.CheckReportFormat(in.Format); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	entries, err := a.svc.Entries(r.Context(), c.Company)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	rep, err := reports.Build(entries, req)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	content, contentType, ext, err := reportfmt.Render(rep, in.Format)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	rid := a.svc.NewID()
	rec := captable.FinancialReport{ID: rid, Type: rep.Type, Format: in.Format, AsOfDate: in.AsOfDate.Time,
		BasedOnVersion: rep.BasedOnVersion, ContentType: contentType,
		Filename:    strings.ToLower(strings.ReplaceAll(rep.Type, "_", "-")) + "-" + in.AsOfDate.String() + "." + strings.TrimPrefix(ext, "."),
		GeneratedBy: c.AccountID, At: req.GeneratedAt}
	app, err := a.svc.RecordReport(r.Context(), c.Company, rec, content)
	if err == nil {
		err = a.settled(r, app)
	}
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	a.writeReport(w, r, http.StatusCreated, rid)
}

func (a *API) getReport(w http.ResponseWriter, r *http.Request) {
	a.writeReport(w, r, http.StatusOK, id(r))
}

// writeReport answers with a report's record, inlining a JSON report.
func (a *API) writeReport(w http.ResponseWriter, r *http.Request, status int, rid string) {
	c, _ := callerFrom(r.Context())
	v, err := proj.Report(r.Context(), a.db, c.Company, rid)
	if err != nil {
		writeOne(w, r, status, "financial report", reportBody{}, err)
		return
	}
	b := reportBody{ReportView: v}
	if v.Format == "json" && v.Size <= maxInlineReport {
		f, err := a.svc.OpenBlob(r.Context(), c.Company, v.SHA256)
		if err != nil {
			httpx.WriteError(w, r, kernel.Unavailable("the report's file is missing from the blob store", err))
			return
		}
		defer f.Close()
		if b.Report, err = io.ReadAll(f); err != nil {
			httpx.WriteError(w, r, err)
			return
		}
	}
	writeJSON(w, r, status, b)
}

func (a *API) downloadReport(w http.ResponseWriter, r *http.Request) {
	c, _ := callerFrom(r.Context())
	v, err := proj.Report(r.Context(), a.db, c.Company, id(r))
	if err = notFoundAs(err, "financial report", id(r)); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	serveBlob(w, r, a, c.Company, v.SHA256, v.Filename, v.ContentType)
}

package content

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/emersion/go-ical"
)

// exportMax bounds an export's items.
const exportMax = 5000

// exportICS serves GET /content/calendar/export.ics: the items the list's
// filters select as an iCalendar file (RFC 5545, written by go-ical), one
// VEVENT per item whose UID is the item's id, so a re-import updates
// rather than duplicates.
func (a *API) exportICS(w http.ResponseWriter, r *http.Request, c caller) {
	f, err := listFilter(r, c.actor.Owner)
	if err != nil {
		writeErr(w, r, err)
		return
	}
	f.Limit, f.Offset = exportMax, 0
	items, err := a.items(r.Context(), f)
	if err != nil {
		writeErr(w, r, err)
		return
	}
	cal := ical.NewCalendar()
	cal.Props.SetText(ical.PropVersion, "2.0")
	cal.Props.SetText(ical.PropProductID, "-//Strata//Content Calendar//EN")
	cal.Props.SetText("X-WR-CALNAME", "Strata content calendar")
	for _, it := range items {
		ev := ical.NewEvent()
		start, _ := time.Parse(time.RFC3339Nano, it.ScheduledAt)
		updated, _ := time.Parse(time.RFC3339Nano, it.UpdatedAt)
		created, _ := time.Parse(time.RFC3339Nano, it.CreatedAt)
		ev.Props.SetText(ical.PropUID, it.ID+"@strata-content")
		ev.Props.SetDateTime(ical.PropDateTimeStamp, updated.UTC())
		ev.Props.SetDateTime(ical.PropCreated, created.UTC())
		ev.Props.SetDateTime(ical.PropLastModified, updated.UTC())
		ev.Props.SetDateTime(ical.PropDateTimeStart, start.UTC())
		ev.Props.SetText(ical.PropSummary, oneLine("["+it.Platform+"] "+it.Title))
		if it.Script != "" {
			ev.Props.SetText(ical.PropDescription, lf(it.Script))
		}
		ev.Props.SetText(ical.PropCategories, it.Platform)
		ev.Props.SetText(ical.PropStatus, "CONFIRMED")
		ev.Props.SetText("X-STRATA-STATUS", it.Status)
		for _, t := range it.Targets {
			if t.URL != nil && t.State == "published" {
				ev.Props.SetText(ical.PropURL, *t.URL)
			}
		}
		cal.Children = append(cal.Children, ev.Component)
	}
	var buf bytes.Buffer
	if len(cal.Children) > 0 {
		if err := ical.NewEncoder(&buf).Encode(cal); err != nil {
			writeErr(w, r, err)
			return
		}
	} else {
		// go-ical refuses a calendar without components; RFC 5545 needs
		// one too, so an empty export is the header alone.
		buf.WriteString("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Strata//Content Calendar//EN\r\nEND:VCALENDAR\r\n")
	}
	w.Header().Set("Content-Type", "text/calendar; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="content-calendar.ics"`)
	_, _ = w.Write(buf.Bytes())
}

// csvHeader is the calendar CSV's header.
var csvHeader = []string{"id", "title", "platform", "status", "reason", "scheduled_at", "twin_id", "script", "media_urls", "published_urls"}

// exportCSV serves GET /content/calendar/export.csv: the items the list's
// filters select, one row each (RFC 4180). Cells that a spreadsheet would
// take for a formula (starting with = + - @, tab or CR) are prefixed with
// an apostrophe.
func (a *API) exportCSV(w http.ResponseWriter, r *http.Request, c caller) {
	f, err := listFilter(r, c.actor.Owner)
	if err != nil {
		writeErr(w, r, err)
		return
	}
	f.Limit, f.Offset = exportMax, 0
	items, err := a.items(r.Context(), f)
	if err != nil {
		writeErr(w, r, err)
		return
	}
	var buf bytes.Buffer
	cw := csv.NewWriter(&buf)
	cw.UseCRLF = true // RFC 4180 records end in CRLF
	_ = cw.Write(csvHeader)
	for _, it := range items {
		var media []struct {
			URL string `json:"url"`
		}
		_ = json.Unmarshal(it.Media, &media)
		var murls, purls []string
		for _, m := range media {
			murls = append(murls, m.URL)
		}
		for _, t := range it.Targets {
			if t.URL != nil && t.State == "published" {
				purls = append(purls, *t.URL)
			}
		}
		twin, reason := "", ""
		if it.TwinID != nil {
			twin = *it.TwinID
		}
		if it.Reason != nil {
			reason = *it.Reason
		}
		row := []string{it.ID, it.Title, it.Platform, it.Status, reason, it.ScheduledAt, twin, it.Script,
			strings.Join(murls, " "), strings.Join(purls, " ")}
		for i := range row {
			row[i] = SafeCell(row[i])
		}
		_ = cw.Write(row)
	}
	cw.Flush()
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="content-calendar.csv"`)
	_, _ = w.Write(buf.Bytes())
}

// lf turns CRLF and CR line breaks into LF, the only break iCalendar text
// carries (escaped as \n); go-ical refuses a bare CR.
func lf(s string) string { return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n") }

// oneLine puts a text on one line (a summary).
func oneLine(s string) string { return strings.ReplaceAll(lf(s), "\n", " ") }

// SafeCell defuses a CSV cell a spreadsheet would evaluate as a formula.
func SafeCell(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

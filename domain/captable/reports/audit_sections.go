package reports

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"time"
)

// auditReport is AUDIT_READY: the basis of the report (the stream version,
// the entries used and their digest), every figure of the cap table summary
// with the events behind it, each event's contribution, the reconciliation
// of each figure with the sum of its contributions, and the entries used.
func auditReport(b *book) []Section {
	checks := reconcile(b.summary, recompute(b.applied, b.asOf))
	return []Section{basisSection(b, checks), figuresSection(checks), contributionsSection(checks),
		reconciliationSection(checks), eventsSection(b.applied)}
}

// Digest is the SHA-256 (lowercase hex) of the canonical list of entries:
// one line "<version>\t<eventId>\t<type>\n" per entry, in the given order.
// An entry without a Type is named by its event's EventType.
func Digest(entries []Entry) string {
	h := sha256.New()
	for _, e := range entries {
		h.Write([]byte(strconv.FormatInt(e.Version, 10) + "\t" + e.EventID + "\t" + typeOf(e) + "\n"))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// typeOf is an entry's type name: Type, or its event's EventType.
func typeOf(e Entry) string {
	if e.Type == "" && e.Event != nil {
		return e.Event.EventType()
	}
	return e.Type
}

func basisSection(b *book, checks []check) Section {
	sec := section("basis", "Basis of the report", text("item", "Item"), text("value", "Value"))
	var last int64
	if n := len(b.entries); n > 0 {
		last = b.entries[n-1].Version
	}
	failed := 0
	for _, c := range checks {
		if !c.matches() {
			failed++
		}
	}
	result := "all " + strconv.Itoa(len(checks)) + " figures match the sum of their events' contributions"
	if failed > 0 {
		result = strconv.Itoa(failed) + " of " + strconv.Itoa(len(checks)) + " figures DO NOT MATCH"
	}
	sec.add("Company id", b.company.ID)
	sec.add("As-of date", day(b.asOf))
	sec.add("Last stream version read", strconv.FormatInt(last, 10))
	sec.add("Entries read", strconv.Itoa(len(b.entries)))
	sec.add("Entries used", strconv.Itoa(len(b.applied)))
	sec.add("Entries left out (dated after the as-of date)", strconv.Itoa(len(b.entries)-len(b.applied)))
	sec.add("SHA-256 of the entries used", Digest(b.applied))
	sec.add("Reconciliation", result)
	sec.note(`The digest is the SHA-256, in lowercase hex, of one line "<version>\t<eventId>\t<type>\n" (UTF-8) per entry used, in stream order; the entries are listed in the last section.`)
	sec.note("An entry is used unless its business date falls after the as-of date; undated reference data (company, stakeholders, share class terms) is always used.")
	return sec
}

func figuresSection(checks []check) Section {
	sec := section("figures", "Figures and their events", text("figureId", "Figure id"), text("figure", "Figure"),
		number("value", "Value"), number("events", "Events"), text("versions", "Stream versions"))
	for _, c := range checks {
		list, n := versions(c.refs)
		sec.add(c.key, c.label, qty(c.value), strconv.Itoa(n), list)
	}
	sec.note("Each figure is the sum of the contributions of the events listed; the next section gives each contribution with its event id.")
	return sec
}

func contributionsSection(checks []check) Section {
	sec := section("contributions", "Contributions by event", text("figureId", "Figure id"), number("version", "Version"),
		ref("eventId", "Event id"), text("eventType", "Event type"), text("description", "Description"),
		number("contribution", "Contribution"))
	for _, c := range checks {
		for _, r := range c.refs {
			sec.add(c.key, strconv.FormatInt(r.entry.Version, 10), r.entry.EventID, typeOf(r.entry), r.what, qty(r.delta))
		}
	}
	sec.note("Awards whose window or term lapsed by the as-of date without a recorded expiry are taken out against the event that set the window (the termination) or the expiration date (the grant's terms).")
	return sec
}

func reconciliationSection(checks []check) Section {
	sec := section("reconciliation", "Reconciliation", text("figureId", "Figure id"), text("figure", "Figure"),
		number("reported", "Reported"), number("recomputed", "Sum of contributions"), number("difference", "Difference"),
		text("status", "Status"))
	for _, c := range checks {
		status := "matches"
		if !c.matches() {
			status = "DOES NOT MATCH"
		}
		sec.add(c.key, c.label, qty(c.value), qty(c.recomputed), qty(c.value.Sub(c.recomputed)), status)
	}
	sec.note("Reported is the cap table summary's figure (the domain fold); the sum of contributions is recomputed independently, event by event.")
	return sec
}

func eventsSection(applied []Entry) Section {
	sec := section("events", "Entries used", number("version", "Version"), ref("eventId", "Event id"),
		text("eventType", "Event type"), date("businessDate", "Business date"), text("recordedAt", "Recorded at"))
	for _, e := range applied {
		var on time.Time
		if d, ok := datedOf(e); ok {
			on = d
		}
		rec := ""
		if !e.RecordedAt.IsZero() {
			rec = e.RecordedAt.UTC().Format(time.RFC3339Nano)
		}
		sec.add(strconv.FormatInt(e.Version, 10), e.EventID, typeOf(e), day(on), rec)
	}
	return sec
}

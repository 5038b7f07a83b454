package builder_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/strata-platform/strata/domain/builder"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
)

// Enrollment: a session route; 400s name the field; another founder 403;
// defaults (UTC, 02:00-05:00, the default budget); enrolling again
// replaces the enrollment and is recorded.
func TestEnrollValidationAndUpdate(t *testing.T) {
	t.Parallel()
	w := newSysWorld(t)
	grace, ada := w.signIn("u-grace"), w.signIn("u-ada")
	id := w.company(grace.userID, "a booking app for dog groomers")
	enroll := func(f *founder, body string) (int, map[string]any) {
		return w.call(f, "", http.MethodPost, "/api/build/enroll", body)
	}
	base := `"companyId":"` + id + `","companyName":"Groom Room","track":"app"`
	if st, _ := enroll(nil, "{"+base+"}"); st != 401 {
		t.Fatalf("without a session: %d", st)
	}
	for _, tc := range []struct{ body, field string }{
		{`{"companyName":"Groom Room","track":"app"}`, "companyId"},
		{`{"companyId":"` + id + `","track":"app"}`, "companyName"},
		{`{"companyId":"` + id + `","companyName":"Groom Room"}`, "track"},
		{`{"companyId":"` + id + `","companyName":"Groom Room","track":"startup"}`, "track"},
		{"{" + base + `,"goal":"` + strings.Repeat("g", 1001) + `"}`, "goal"},
		{"{" + base + `,"timeZone":"Mars/Olympus_Mons"}`, "timeZone"},
		{"{" + base + `,"window":{"start":"2am","end":"05:00"}}`, "window.start"},
		{"{" + base + `,"window":{"start":"02:00","end":"02:15"}}`, "window"},
		{"{" + base + `,"budget":{"max_proposals":50}}`, "budget.max_proposals"},
		{"{" + base + `,"budget":{"max_tokens":-1}}`, "budget.max_tokens"},
	} {
		if st, body := enroll(grace, tc.body); st != 400 || field(body) != tc.field {
			t.Fatalf("%s: %d %v, want 400 %s", tc.body, st, body, tc.field)
		}
	}
	if st, _ := enroll(ada, "{"+base+"}"); st != 403 {
		t.Fatalf("another founder: %d", st)
	}
	st, body := enroll(grace, "{"+base+`,"goal":"first ten paying groomers"}`)
	if st != 200 || body["enrolled"] != true || body["updated"] != false || body["time_zone"] != "UTC" || body["mode"] != "offline" {
		t.Fatalf("enroll: %d %v", st, body)
	}
	if win := body["window"].(map[string]any); win["start"] != "02:00" || win["end"] != "05:00" {
		t.Fatalf("window %v", win)
	}
	if b := body["budget"].(map[string]any); b["max_proposals"].(float64) != 5 || b["max_tokens"].(float64) != 20000 {
		t.Fatalf("budget %v", b)
	}
	// 03:00 UTC is inside tonight's window and no run reported: due now.
	if body["next_run_at"] != "2025-05-01T03:00:00Z" {
		t.Fatalf("next_run_at %v", body["next_run_at"])
	}
	st, body = enroll(grace, "{"+base+`,"timeZone":"Europe/Paris","window":{"start":"23:30","end":"01:30"},"budget":{"max_proposals":2}}`)
	if st != 200 || body["updated"] != true || body["time_zone"] != "Europe/Paris" || body["goal"] != nil ||
		body["budget"].(map[string]any)["max_proposals"].(float64) != 2 {
		t.Fatalf("re-enroll: %d %v", st, body)
	}
	// 23:30 in Paris (CEST, UTC+2) is 21:30 UTC.
	if body["next_run_at"] != "2025-05-01T21:30:00Z" {
		t.Fatalf("next_run_at %v", body["next_run_at"])
	}
	evs, _ := w.store.Load(context.Background(), builder.NightlyStream(id), eventstore.LoadOptions{})
	if len(evs) != 2 {
		t.Fatalf("%d events, want 2 enrollments", len(evs))
	}
	st, body = w.call(grace, "", http.MethodGet, "/api/build/nightly?companyId="+id, "")
	if st != 200 || body["enrolled"] != true || len(body["reports"].([]any)) != 0 {
		t.Fatalf("nightly: %d %v", st, body)
	}
	if st, _ := w.call(ada, "", http.MethodGet, "/api/build/nightly?companyId="+id, ""); st != 403 {
		t.Fatalf("another founder's reports: %d", st)
	}
}

// The nightly run: the dispatcher enqueues one run per company and night
// (a second dispatch, and a second run of the same night, add nothing);
// the read phase finds stale artifacts, the systems' counts, the deploy
// behind the current version, a secret the code reads but lacks and an
// open Ask question; the proposals stop at the budget's cap; nothing is
// redeployed or written; the offline report says the checks only ran.
func TestNightlyRunOfflineReport(t *testing.T) {
	t.Parallel()
	w := newSysWorld(t)
	ctx := context.Background()
	grace := w.signIn("u-grace")
	id := w.company(grace.userID, "a booking app for dog groomers")
	ch, err := w.chats.Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	cur, _ := ch.CurrentVersion()
	at := w.clock.Now()
	appendTo := func(stream eventstore.Stream, ev kernel.Event) {
		t.Helper()
		if _, err := w.store.Append(ctx, stream, eventstore.AnyVersion, ev); err != nil {
			t.Fatal(err)
		}
	}
	// An artifact from before the current version (stale) and one after.
	appendTo(eventstore.Stream{Type: builder.StreamArtifacts, ID: builder.ArtifactsStream(id)},
		&builder.ArtifactGenerated{ArtifactID: "art_1", CompanyID: id, View: "prd", Content: json.RawMessage(`{}`), At: cur.At.Add(-time.Hour)})
	appendTo(eventstore.Stream{Type: builder.StreamArtifacts, ID: builder.ArtifactsStream(id)},
		&builder.ArtifactGenerated{ArtifactID: "art_2", CompanyID: id, View: "dataModel", Content: json.RawMessage(`{}`), At: cur.At.Add(time.Minute)})
	// An Ask thread: one question answered from the facts, one left open.
	ask := eventstore.Stream{Type: builder.StreamAsk, ID: builder.AskStream(id, id)}
	for _, turn := range []*builder.AskTurn{
		{CompanyID: id, ChatID: id, Role: builder.RoleUser, Text: "How many versions?", At: at},
		{CompanyID: id, ChatID: id, Role: builder.RoleAssistant, Text: "One.", Intents: []string{"versions"}, At: at},
		{CompanyID: id, ChatID: id, Role: builder.RoleUser, Text: "What should our pricing be?", At: at},
		{CompanyID: id, ChatID: id, Role: builder.RoleAssistant, Text: "No model is configured.", At: at},
	} {
		appendTo(ask, turn)
	}
	// A deploy of an older version that took the traffic.
	appendTo(eventstore.Stream{Type: builder.StreamDeploys, ID: builder.DeploysStream(id)},
		&builder.AppDeployed{CompanyID: id, VersionID: "ver_older", Switched: true, Trigger: builder.TriggerPreview, At: at})
	// Two records, one secret.
	if st, body := w.call(grace, "", http.MethodPost, "/api/build/systems/records",
		`{"companyId":"`+id+`","system":"crm","type":"created","recordId":"d1"}`); st != 200 {
		t.Fatalf("%d %v", st, body)
	}
	appendTo(eventstore.Stream{Type: builder.StreamSecrets, ID: builder.SecretsStreamID(id)},
		&builder.SecretSet{CompanyID: id, Name: "STRIPE_KEY", Version: 1, UpdatedBy: grace.userID, At: at})
	if st, body := w.call(grace, "", http.MethodPost, "/api/build/enroll",
		`{"companyId":"`+id+`","companyName":"Groom Room","track":"app","budget":{"max_proposals":2}}`); st != 200 {
		t.Fatalf("enroll: %d %v", st, body)
	}
	before := w.eventCounts(id)

	// Dispatch inside the window: one run; again: none.
	if n, err := w.nightly.Dispatch(ctx, w.clock.Now()); err != nil || n != 1 {
		t.Fatalf("dispatch: %d %v", n, err)
	}
	if n, err := w.nightly.Dispatch(ctx, w.clock.Now().Add(15*time.Minute)); err != nil || n != 0 {
		t.Fatalf("second dispatch of the night: %d %v", n, err)
	}
	if n, err := w.nightly.Dispatch(ctx, w.clock.Now().Add(6*time.Hour)); err != nil || n != 0 {
		t.Fatalf("outside the window: %d %v", n, err)
	}
	rep := w.waitReport(id)
	if rep.Night != "2025-05-01" || rep.Trigger != builder.NightlyScheduled || rep.Mode != builder.NightlyOffline {
		t.Fatalf("report %+v", rep)
	}
	if len(rep.Notes) < 2 || !strings.Contains(rep.Notes[0], "No model is configured") || !strings.Contains(rep.Notes[1], "Nothing was redeployed") {
		t.Fatalf("notes %q", rep.Notes)
	}
	f := rep.Found
	if !f.Artifacts.Recorded || f.Artifacts.Stale != 1 || len(f.Artifacts.Views) != 2 || !f.Artifacts.Views[1].Stale || f.Artifacts.Views[1].View != "prd" {
		t.Fatalf("artifacts %+v", f.Artifacts)
	}
	if !f.Deploy.Deployed || f.Deploy.Current || f.Deploy.VersionID != "ver_older" || f.Deploy.CurrentVersionID != cur.VersionID {
		t.Fatalf("deploy %+v", f.Deploy)
	}
	if f.Secrets.FilesScanned == 0 || f.Secrets.Set != 1 || !contains(f.Secrets.Referenced, "PORT") || !contains(f.Secrets.Missing, "APP_WRITE_TOKEN") ||
		contains(f.Secrets.Missing, "PORT") || contains(f.Secrets.Missing, "ALLOW_ORIGIN") {
		t.Fatalf("secrets %+v", f.Secrets)
	}
	if !f.Ask.Recorded || f.Ask.Threads != 1 || f.Ask.Questions != 2 || len(f.Ask.Open) != 1 || f.Ask.Open[0].Text != "What should our pricing be?" {
		t.Fatalf("ask %+v", f.Ask)
	}
	crm := f.Systems[0]
	if crm.ID != "crm" || crm.Counts["total"] != 1 || crm.Counts["open"] != 1 {
		t.Fatalf("systems %+v", f.Systems)
	}
	// secret, redeploy, stale prd, open question: four, capped at two.
	if len(rep.Proposed) != 2 || rep.Dropped != 2 || rep.Proposed[0].Kind != builder.ProposeSetSecret || !rep.Proposed[0].RequiresApproval ||
		rep.Proposed[1].Kind != builder.ProposeRedeploy {
		t.Fatalf("proposed %+v dropped %d", rep.Proposed, rep.Dropped)
	}
	if rep.Spent.Tokens != 0 || rep.Spent.Drafts != 0 || rep.Spent.Proposals != 2 || len(rep.Failed) != 0 {
		t.Fatalf("spent %+v failed %+v", rep.Spent, rep.Failed)
	}
	// Safe outputs only: the report is the one new event.
	after := w.eventCounts(id)
	for stream, n := range before {
		if stream != builder.NightlyStream(id) && after[stream] != n {
			t.Fatalf("the run wrote to %s", stream)
		}
	}
	if after[builder.NightlyStream(id)] != before[builder.NightlyStream(id)]+1 {
		t.Fatalf("nightly events %d -> %d", before[builder.NightlyStream(id)], after[builder.NightlyStream(id)])
	}
	// The same night again: not run twice.
	again, dup, err := w.nightly.RunNight(ctx, id, "2025-05-01")
	if err != nil || !dup || again.ReportID != rep.ReportID {
		t.Fatalf("second run of the night: dup %v %v %s", dup, err, again.ReportID)
	}
	if n := w.eventCounts(id)[builder.NightlyStream(id)]; n != after[builder.NightlyStream(id)] {
		t.Fatalf("a second report was appended: %d", n)
	}
	// On demand: a manual report, not the night's.
	manual, err := w.nightly.RunNow(ctx, id)
	if err != nil || manual.Trigger != builder.NightlyManual || manual.ReportID == rep.ReportID {
		t.Fatalf("manual %+v %v", manual, err)
	}
	st, body := w.call(grace, "", http.MethodGet, "/api/build/nightly?companyId="+id, "")
	reports, _ := body["reports"].([]any)
	if st != 200 || len(reports) != 2 || reports[0].(map[string]any)["trigger"] != "manual" {
		t.Fatalf("reports: %d %v", st, jsonOf(body))
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// eventCounts counts the events of every stream of the company.
func (w *sysWorld) eventCounts(id string) map[string]int {
	w.t.Helper()
	rows, err := w.db.Query(`SELECT stream_id, count(*) FROM es.events WHERE stream_id = $1 OR stream_id LIKE '%' || $1 || '%'
		GROUP BY stream_id`, id)
	if err != nil {
		w.t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var s string
		var n int
		if err := rows.Scan(&s, &n); err != nil {
			w.t.Fatal(err)
		}
		out[s] = n
	}
	return out
}

// waitReport waits for the company's first report (the job runs it).
func (w *sysWorld) waitReport(id string) builder.NightlyReported {
	w.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		st, err := w.nightly.Load(context.Background(), id)
		if err != nil {
			w.t.Fatal(err)
		}
		if len(st.Reports) > 0 {
			return st.Reports[0]
		}
		time.Sleep(20 * time.Millisecond)
	}
	w.t.Fatal("no nightly report")
	return builder.NightlyReported{}
}

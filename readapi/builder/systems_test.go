package builder_test

import (
	"context"
	"encoding/json"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"

	cmdbuilder "github.com/strata-platform/strata/commands/builder"
	"github.com/strata-platform/strata/domain/builder"
	"github.com/strata-platform/strata/eventstore"
)

// A fresh company shows zeros on every card, never an invented number;
// its primitives are its app spec's entities, and the idea parameter adds
// the entities it implies. Bad queries are 400s naming the field.
func TestSystemsOfAFreshCompanyAreZeros(t *testing.T) {
	t.Parallel()
	w := newSysWorld(t)
	id := w.company("u-grace", "a booking app for dog groomers")
	st, body := w.call(nil, "", http.MethodGet, "/api/build/systems?companyId="+id, "")
	if st != 200 || body["source"] != "events" || body["companyId"] != id {
		t.Fatalf("%d %v", st, body)
	}
	list := body["systems"].([]any)
	if len(list) < 5 {
		t.Fatalf("want the three core systems and the spec's entities: %v", jsonOf(body))
	}
	for i, want := range []string{"crm", "billing", "support"} {
		if c := list[i].(map[string]any); c["id"] != want || c["kind"] != want || c["origin"] != "core" {
			t.Fatalf("card %d: %v", i, c)
		}
	}
	for _, c := range list {
		m := c.(map[string]any)
		for k, v := range m["counts"].(map[string]any) {
			if v.(float64) != 0 {
				t.Fatalf("card %v count %s = %v on a fresh company", m["id"], k, v)
			}
		}
		if m["last_activity_at"] != nil || m["source"] != "events" {
			t.Fatalf("card %v: %v", m["id"], m)
		}
		if i := m["kind"]; i == "primitive" && m["origin"] != "spec" {
			t.Fatalf("without idea every primitive is the spec's: %v", m)
		}
	}
	bookings := card(t, body, "bookings")
	if bookings["kind"] != "primitive" || bookings["label"] != "Bookings" || bookings["record"] != "booking" {
		t.Fatalf("bookings: %v", bookings)
	}
	if crm := card(t, body, "crm"); count(t, crm, "won") != 0 || count(t, crm, "lost") != 0 || count(t, crm, "total") != 0 {
		t.Fatalf("crm: %v", crm)
	}

	st, body = w.call(nil, "", http.MethodGet, "/api/build/systems?companyId="+id+"&idea=an+online+store+selling+candles", "")
	if st != 200 {
		t.Fatalf("with idea: %d %v", st, body)
	}
	ideaCards := 0
	for _, c := range body["systems"].([]any) {
		if c.(map[string]any)["origin"] == "idea" {
			ideaCards++
		}
	}
	if ideaCards == 0 {
		t.Fatalf("the idea adds its entities: %v", jsonOf(body))
	}

	for _, tc := range []struct{ query, field string }{
		{"", "companyId"},
		{"companyId=nope", "companyId"},
		{"companyId=" + id + "&idea=" + strings.Repeat("a", 4001), "idea"},
	} {
		if st, body := w.call(nil, "", http.MethodGet, "/api/build/systems?"+tc.query, ""); st != 400 || field(body) != tc.field {
			t.Fatalf("%s: %d %v", tc.query, st, body)
		}
	}
	if st, _ := w.call(nil, "", http.MethodGet, "/api/build/systems?companyId=chat_01JABCDEFGHJKMNPQRSTVWXYZ0", ""); st != 404 {
		t.Fatalf("unknown company: %d", st)
	}
}

// Records posted by the founder (session) and by the app (company key)
// are counted; a wrong key is 401, another company's key and another
// founder 403; rotating the key ends the old one; validation names the
// field; the fields are sealed in the events; the table equals the fold.
func TestSystemsRecordsFromFounderAndKey(t *testing.T) {
	t.Parallel()
	w := newSysWorld(t)
	grace, ada := w.signIn("u-grace"), w.signIn("u-ada")
	id := w.company(grace.userID, "a booking app for dog groomers")
	other := w.company(ada.userID, "a crm for florists")
	post := func(f *founder, auth, body string) (int, map[string]any) {
		return w.call(f, auth, http.MethodPost, "/api/build/systems/records", body)
	}
	rec := func(company, system, typ, recordID, extra string) string {
		return `{"companyId":"` + company + `","system":"` + system + `","type":"` + typ + `","recordId":"` + recordID + `"` + extra + `}`
	}
	for _, b := range []string{
		rec(id, "crm", "created", "deal-1", `,"fields":{"title":"Annual grooming plan","customer_email":"pat@example.com"}`),
		rec(id, "crm", "created", "deal-2", ""),
		rec(id, "crm", "closed", "deal-1", `,"outcome":"won"`),
		rec(id, "billing", "created", "inv-1", `,"fields":{"amount":"120.00"}`),
	} {
		if st, body := post(grace, "", b); st != 200 {
			t.Fatalf("founder %s: %d %v", b, st, body)
		}
	}
	st, key := w.call(grace, "", http.MethodPost, "/api/build/systems/key", `{"companyId":"`+id+`"}`)
	k, _ := key["key"].(string)
	if st != 200 || !strings.HasPrefix(k, "bsk_") || key["env"] != "STRATA_SYSTEMS_KEY" {
		t.Fatalf("key: %d %v", st, key)
	}
	bearer := "Bearer " + k
	for _, b := range []string{
		rec(id, "support", "created", "t-1", `,"fields":{"subject":"Cannot book"}`),
		rec(id, "support", "closed", "t-1", ""),
		rec(id, "bookings", "created", "b-1", `,"fields":{"customer_name":"Pat"}`),
		rec(id, "bookings", "created", "b-2", ""),
		rec(id, "bookings", "deleted", "b-2", ""),
	} {
		if st, body := post(nil, bearer, b); st != 200 {
			t.Fatalf("app %s: %d %v", b, st, body)
		}
	}
	st, body := w.call(nil, "", http.MethodGet, "/api/build/systems?companyId="+id, "")
	if st != 200 {
		t.Fatalf("%d %v", st, body)
	}
	crm, support, bookings := card(t, body, "crm"), card(t, body, "support"), card(t, body, "bookings")
	for _, c := range []struct {
		card        map[string]any
		key         string
		want        int
		description string
	}{
		{crm, "total", 2, "two deals"}, {crm, "open", 1, "one open"}, {crm, "closed", 1, "one closed"}, {crm, "won", 1, "won"},
		{card(t, body, "billing"), "total", 1, "one invoice"},
		{support, "total", 1, "one ticket"}, {support, "resolved", 1, "closed as resolved by default"},
		{bookings, "total", 1, "a deleted booking is not counted"}, {bookings, "deleted", 1, "but shown as deleted"},
	} {
		if got := count(t, c.card, c.key); got != c.want {
			t.Fatalf("%s: %s = %d, want %d", c.description, c.key, got, c.want)
		}
	}
	if crm["last_activity_at"] == nil || strings.Contains(jsonOf(body), "Annual grooming") || strings.Contains(jsonOf(body), "pat@example.com") {
		t.Fatalf("cards show activity, never contents: %v", jsonOf(body))
	}

	// Who may post.
	otherKey := w.issueKey(ada, other)
	for _, tc := range []struct {
		name   string
		f      *founder
		auth   string
		status int
	}{
		{"nobody", nil, "", 401},
		{"a wrong key", nil, "Bearer bsk_" + strings.Repeat("A", 43), 401},
		{"a malformed key", nil, "Bearer bsk_short", 401},
		{"not a company key", nil, "Bearer eyJhbGciOi.x.y", 401},
		{"another company's key", nil, "Bearer " + otherKey, 403},
		{"another founder", ada, "", 403},
	} {
		if st, body := post(tc.f, tc.auth, rec(id, "crm", "created", "deal-x", "")); st != tc.status {
			t.Fatalf("%s: %d %v", tc.name, st, body)
		}
	}
	anon := w.company("", "a helpdesk for a bakery")
	if st, _ := post(grace, "", rec(anon, "crm", "created", "d", "")); st != 403 {
		t.Fatalf("a company generated without a session belongs to nobody: %d", st)
	}

	// Validation: 400 naming the field; 404 and 409 from the record's state.
	for _, tc := range []struct {
		body   string
		status int
		field  string
	}{
		{rec(id, "warehouse", "created", "w-1", ""), 400, "system"},
		{rec(id, "crm", "won", "deal-2", ""), 400, "type"},
		{rec(id, "crm", "created", "", ""), 400, "recordId"},
		{rec(id, "crm", "created", "deal 9", ""), 400, "recordId"},
		{rec(id, "crm", "created", "deal-9", `,"fields":[1,2]`), 400, "fields"},
		{rec(id, "crm", "closed", "deal-2", `,"outcome":"paid"`), 400, "outcome"},
		{rec(id, "crm", "closed", "deal-2", ""), 400, "outcome"},
		{rec(id, "crm", "updated", "deal-2", ""), 400, "fields"},
		{rec(id, "crm", "updated", "deal-404", `,"fields":{"a":1}`), 404, "recordId"},
		{rec(id, "crm", "created", "deal-1", ""), 409, "recordId"},
		{rec(id, "crm", "closed", "deal-1", `,"outcome":"lost"`), 409, "type"},
		{rec("", "crm", "created", "x", ""), 400, "companyId"},
		{`{"companyId":"` + id + `","system":"crm","type":"created","recordId":"x","extra":1}`, 400, "extra"},
	} {
		if st, body := post(grace, "", tc.body); st != tc.status || field(body) != tc.field {
			t.Fatalf("%s: %d %v, want %d %s", tc.body, st, body, tc.status, tc.field)
		}
	}

	// Rotation: a new key replaces the old one at once.
	if newKey := w.issueKey(grace, id); newKey == k {
		t.Fatal("a new key must differ")
	}
	if st, _ := post(nil, bearer, rec(id, "crm", "created", "deal-3", "")); st != 401 {
		t.Fatalf("the replaced key: %d", st)
	}

	// The events hold the fields sealed; the company's key opens them.
	evs, err := w.store.Load(context.Background(), builder.SystemsStream(id), eventstore.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var opened []string
	for _, e := range evs {
		if strings.Contains(string(e.Payload), "pat@example.com") || strings.Contains(string(e.Payload), k) {
			t.Fatalf("plain text in the log: %s", e.Payload)
		}
		if ev, ok := e.Event.(*builder.SystemRecordChanged); ok && ev.Fields != nil {
			raw, err := w.systems.OpenFields(context.Background(), ev)
			if err != nil {
				t.Fatal(err)
			}
			opened = append(opened, string(raw))
		}
		if ev, ok := e.Event.(*builder.SystemRecordChanged); ok && ev.System == "support" && ev.ActorKind != builder.ActorApp {
			t.Fatalf("the app's records name the key: %+v", ev)
		}
	}
	if len(opened) != 4 || !strings.Contains(opened[0], `"customer_email":"pat@example.com"`) {
		t.Fatalf("opened %v", opened)
	}
	rows, err := w.systems.Rows(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	fold, err := w.systems.Refold(context.Background(), id)
	if err != nil || !reflect.DeepEqual(rows, fold) || len(rows) != 6 {
		t.Fatalf("table %v\nfold %v (%v)", rows, fold, err)
	}
}

func (w *sysWorld) issueKey(f *founder, companyID string) string {
	w.t.Helper()
	st, body := w.call(f, "", http.MethodPost, "/api/build/systems/key", `{"companyId":"`+companyID+`"}`)
	if st != 200 {
		w.t.Fatalf("issue key: %d %v", st, body)
	}
	return body["key"].(string)
}

// A deploy's environment gets the company's live key (its first deploy
// issues one), the records URL and the company id; the key works.
func TestSystemsAppEnv(t *testing.T) {
	t.Parallel()
	w := newSysWorld(t)
	grace := w.signIn("u-grace")
	id := w.company(grace.userID, "a helpdesk for a bakery")
	env := map[string]string{}
	if err := w.systems.AddAppEnv(context.Background(), id, env); err != nil {
		t.Fatal(err)
	}
	again := map[string]string{}
	if err := w.systems.AddAppEnv(context.Background(), id, again); err != nil {
		t.Fatal(err)
	}
	if env[cmdbuilder.SystemsKeyEnv] == "" || env[cmdbuilder.SystemsKeyEnv] != again[cmdbuilder.SystemsKeyEnv] ||
		env[cmdbuilder.SystemsURLEnv] != w.url+"/api/build/systems/records" || env[cmdbuilder.CompanyIDEnv] != id {
		t.Fatalf("env %v, again %v", env, again)
	}
	body := `{"companyId":"` + id + `","system":"support","type":"created","recordId":"t-1"}`
	if st, out := w.call(nil, "Bearer "+env[cmdbuilder.SystemsKeyEnv], http.MethodPost, "/api/build/systems/records", body); st != 200 {
		t.Fatalf("the app's key: %d %v", st, out)
	}
	evs, _ := w.store.Load(context.Background(), builder.SystemsStream(id), eventstore.LoadOptions{})
	issued := 0
	for _, e := range evs {
		if ev, ok := e.Event.(*builder.SystemsKeyIssued); ok {
			issued++
			if ev.IssuedBy != cmdbuilder.IssuedByDeploy || ev.Generation != 1 {
				t.Fatalf("issued %+v", ev)
			}
			var m map[string]any
			_ = json.Unmarshal(e.Payload, &m)
			if strings.Contains(string(e.Payload), env[cmdbuilder.SystemsKeyEnv]) {
				t.Fatal("the key itself is in the log")
			}
		}
	}
	if issued != 1 {
		t.Fatalf("%d keys issued, want 1", issued)
	}
}

// Concurrent posts to one company are serialised, none lost: twenty
// distinct records all land; twenty creates of one id give one 200 and
// nineteen 409s.
func TestSystemsConcurrentWrites(t *testing.T) {
	t.Parallel()
	w := newSysWorld(t)
	grace := w.signIn("u-grace")
	id := w.company(grace.userID, "a helpdesk for a bakery")
	key := "Bearer " + w.issueKey(grace, id)
	const n = 20
	statuses := make(chan int, 2*n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(2)
		go func() {
			defer wg.Done()
			st, _ := w.call(nil, key, http.MethodPost, "/api/build/systems/records",
				`{"companyId":"`+id+`","system":"support","type":"created","recordId":"t-`+strconv.Itoa(i)+`"}`)
			statuses <- st
		}()
		go func() {
			defer wg.Done()
			st, _ := w.call(nil, key, http.MethodPost, "/api/build/systems/records",
				`{"companyId":"`+id+`","system":"crm","type":"created","recordId":"same"}`)
			statuses <- 1000 + st
		}()
	}
	wg.Wait()
	close(statuses)
	got := map[int]int{}
	for st := range statuses {
		got[st]++
	}
	if got[200] != n || got[1200] != 1 || got[1409] != n-1 {
		t.Fatalf("statuses %v", got)
	}
	_, body := w.call(nil, "", http.MethodGet, "/api/build/systems?companyId="+id, "")
	if c := card(t, body, "support"); count(t, c, "total") != n {
		t.Fatalf("support %v", c)
	}
	if c := card(t, body, "crm"); count(t, c, "total") != 1 {
		t.Fatalf("crm %v", c)
	}
}

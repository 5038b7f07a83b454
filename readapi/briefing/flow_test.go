package briefing_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"sync"
	"testing"

	"github.com/google/uuid"

	"github.com/strata-platform/strata/projections"
	projbriefing "github.com/strata-platform/strata/projections/briefing"
)

const briefPath = "/api/v1/internal/intelligence/agent-briefing"

// fixture is a small day of observations (2026-03-02) that the rules turn
// into an acquisition opportunity for Acme (SC 13D +40 and "strategic
// alternatives" +30 = 70 points >= 50), competitive filings for the
// day's filings, co-mentions and trending companies, and a risk_off
// regime (VIX 35.5 > 30).
func fixture(w *world) {
	w.t.Helper()
	obs := []map[string]any{
		{"kind": "filing", "source": "sec_edgar", "source_id": "0000-26-000013", "at": "2026-03-02T15:00:00Z", "company": "Acme Corp",
			"form": "SC 13D", "title": "Activist stake in Acme Corp"},
		{"kind": "filing", "source": "sec_edgar", "source_id": "0000-26-000008", "at": "2026-03-02T16:00:00Z", "company": "Beta Inc",
			"form": "8-K", "title": "Beta Inc current report", "url": "https://www.sec.gov/beta-8k"},
		{"kind": "mention", "source": "newswire", "source_id": "m-acme-1", "at": "2026-03-01T12:00:00Z", "company": "Acme Corp",
			"title": "Acme Corp is exploring strategic alternatives"},
		{"kind": "document", "source": "newswire", "source_id": "d-1", "at": "2026-03-02T08:00:00Z", "companies": []string{"Acme Corp", "Beta Inc"},
			"title": "Acme and Beta square off"},
		{"kind": "document", "source": "newswire", "source_id": "d-2", "at": "2026-03-02T09:00:00Z", "companies": []string{"Acme Corp", "Beta Inc"},
			"title": "Acme, Beta and the market"},
		{"kind": "indicator", "source": "fred", "source_id": "VIXCLS:2026-03-02", "at": "2026-03-02", "series": "VIXCLS", "value": 35.5},
	}
	if r := w.call("POST", obsPath, obs); r.Status != http.StatusOK || r.Body["recorded"] != float64(len(obs)) {
		w.t.Fatalf("fixture: %d %s", r.Status, r.Raw)
	}
}

func (w *world) runAll() []any {
	w.t.Helper()
	r := w.call("POST", "/api/v1/internal/intelligence/runs", map[string]any{"algo": "all", "as_of": "2026-03-02"})
	if r.Status != http.StatusOK {
		w.t.Fatalf("run all: %d %s", r.Status, r.Raw)
	}
	return r.Body["runs"].([]any)
}

// briefing reads an agent's briefing.
func (w *world) briefing(agent string) (map[string]any, []byte) {
	w.t.Helper()
	r := w.call("GET", briefPath+"?agent="+agent, nil)
	if r.Status != http.StatusOK {
		w.t.Fatalf("briefing of %s: %d %s", agent, r.Status, r.Raw)
	}
	return r.Body, r.Raw
}

func signalsOf(b map[string]any) map[string]map[string]any {
	out := map[string]map[string]any{}
	for _, s := range b["signals"].([]any) {
		m := s.(map[string]any)
		out[m["type"].(string)+"/"+m["subject"].(string)] = m
	}
	return out
}

func TestBriefingFlow(t *testing.T) {
	w := newWorld(t)
	fixture(w)
	runs := w.runAll()
	if len(runs) != 6 {
		t.Fatalf("%d runs, want the six algorithms", len(runs))
	}
	signals := w.count(`SELECT count(*) FROM ` + projbriefing.Schema + `.signals`)
	if signals == 0 {
		t.Fatal("the fixture produced no signal")
	}

	ir, _ := w.briefing("ir_agent")
	got := signalsOf(ir)
	acq, ok := got["acquisition_opportunity/acme corp"]
	if !ok {
		t.Fatalf("ir_agent's briefing has no acquisition opportunity for Acme: %v", ir["signals"])
	}
	if acq["algo"] != "acquisition_signal" || acq["payload"] == nil || acq["created_at"] == nil || acq["id"] == nil {
		t.Errorf("signal shape: %v", acq)
	}
	if ir["market_regime"] != nil {
		t.Errorf("ir_agent does not read market_sentiment, but its briefing has a regime: %v", ir["market_regime"])
	}
	if len(ir["trending_companies"].([]any)) == 0 {
		t.Errorf("ir_agent reads content_intelligence; no trending companies: %v", ir)
	}
	cfo, _ := w.briefing("cfo")
	if len(cfo["signals"].([]any)) != 0 {
		t.Errorf("cfo is given no signal type, got %v", cfo["signals"])
	}
	regime, _ := cfo["market_regime"].(map[string]any)
	if regime == nil || regime["regime"] != "risk_off" || regime["vix"] != 35.5 || regime["rule"] == "" {
		t.Errorf("cfo's regime: %v", cfo["market_regime"])
	}
	if recs := cfo["recommendations"].([]any); len(recs) == 0 || !bytes.Contains([]byte(recs[0].(string)), []byte("risk_off")) {
		t.Errorf("cfo's recommendations: %v", recs)
	}
	vega, _ := w.briefing("vega")
	for k := range signalsOf(vega) {
		if k[:len("competitive_filing")] != "competitive_filing" {
			t.Errorf("vega is given competitive_filing only, got %s", k)
		}
	}

	// 50 concurrent consumes by one agent: one event, one consumption.
	id := acq["id"].(string)
	consume := "/api/v1/internal/intelligence/consume-signal?signal_id=" + id + "&agent=ir_agent"
	var wg sync.WaitGroup
	answers := make([]reply, 50)
	for i := range answers {
		wg.Add(1)
		go func() { defer wg.Done(); answers[i] = w.call("POST", consume, nil) }()
	}
	wg.Wait()
	for _, a := range answers {
		if a.Status != http.StatusOK || a.Body["status"] != "ok" || a.Body["signal_id"] != id || a.Body["consumed_by"] != "ir_agent" ||
			a.Body["consumed_at"] != answers[0].Body["consumed_at"] {
			t.Fatalf("a consume: %d %s (first %s)", a.Status, a.Raw, answers[0].Raw)
		}
	}
	if n := w.count(`SELECT count(*) FROM es.events WHERE event_type = 'briefing.signal_consumed'`); n != 1 {
		t.Fatalf("%d consumption events for 50 consumes, want 1", n)
	}
	ir, _ = w.briefing("ir_agent")
	if _, still := signalsOf(ir)["acquisition_opportunity/acme corp"]; still {
		t.Error("ir_agent consumed the signal and still gets it")
	}
	sales, _ := w.briefing("sales_agent")
	if _, ok := signalsOf(sales)["acquisition_opportunity/acme corp"]; !ok {
		t.Error("another agent (sales_agent) no longer sees a signal ir_agent consumed")
	}
	if r := w.call("POST", "/api/v1/internal/intelligence/consume-signal", map[string]string{"signal_id": id, "agent": "ir_agent"}); r.Status != http.StatusOK ||
		r.Body["consumed_at"] != answers[0].Body["consumed_at"] || r.Body["already_consumed"] != true {
		t.Errorf("the consume as a JSON body: %d %s", r.Status, r.Raw)
	}
	if r := w.call("POST", "/api/v1/internal/intelligence/consume-signal?agent=cfo", map[string]string{"signal_id": id, "agent": "ir_agent"}); r.Status != http.StatusBadRequest {
		t.Errorf("query and body disagree: %d %s", r.Status, r.Raw)
	}
	if r := w.call("POST", "/api/v1/internal/intelligence/consume-signal?signal_id="+id+"&agent=vega", nil); r.Status != http.StatusBadRequest {
		t.Errorf("vega consuming an acquisition signal: %d %s", r.Status, r.Raw)
	}
	if r := w.call("POST", "/api/v1/internal/intelligence/consume-signal?signal_id="+uuid.NewString()+"&agent=ir_agent", nil); r.Status != http.StatusNotFound {
		t.Errorf("an unknown signal: %d %s", r.Status, r.Raw)
	}
	for _, q := range []string{"?signal_id=nope&agent=ir_agent", "?agent=ir_agent", "?signal_id=" + id, "?signal_id=" + id + "&agent=nobody"} {
		if r := w.call("POST", "/api/v1/internal/intelligence/consume-signal"+q, nil); r.Status != http.StatusBadRequest {
			t.Errorf("consume%s: %d %s", q, r.Status, r.Raw)
		}
	}

	// A rerun of the day adds no signal; it records its runs.
	w.runAll()
	if n := w.count(`SELECT count(*) FROM ` + projbriefing.Schema + `.signals`); n != signals {
		t.Errorf("a rerun changed the signals: %d, was %d", n, signals)
	}
	if n := w.count(`SELECT count(*) FROM es.events WHERE event_type = 'briefing.signal_detected'`); n != signals {
		t.Errorf("a rerun appended signals: %d events for %d signals", n, signals)
	}
	if n := w.count(`SELECT count(*) FROM es.events WHERE event_type = 'briefing.algorithm_ran'`); n != 12 {
		t.Errorf("%d run records after two runs of six, want 12", n)
	}

	// A rebuild of the read model gives the same briefings.
	agents := []string{"ir_agent", "sales_agent", "cfo", "scout", "research", "scc_outreach", "acme_ir_agent"}
	before := map[string][]byte{}
	for _, a := range agents {
		_, before[a] = w.briefing(a)
	}
	res, err := projections.Rebuilder{DB: w.db.SQL, Registry: w.reg, BatchSize: 3}.Rebuild(context.Background(), projbriefing.Projector{})
	if err != nil || res.Applied == 0 {
		t.Fatalf("rebuild: %+v %v", res, err)
	}
	for _, a := range agents {
		if _, after := w.briefing(a); !bytes.Equal(canon(t, before[a]), canon(t, after)) {
			t.Errorf("%s's briefing changed in the rebuild:\nbefore %s\nafter  %s", a, before[a], after)
		}
	}
}

// canon re-encodes a JSON document (key order).
func canon(t *testing.T, raw []byte) []byte {
	t.Helper()
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	out, _ := json.Marshal(v)
	return out
}

// Two processes on one database: concurrent consumes of one signal by one
// agent through both record one consumption, which both answer with.
func TestConsumeAcrossTwoProcesses(t *testing.T) {
	w := newWorld(t)
	second := w.process([]string{key})
	fixture(w)
	w.runAll()
	var id string
	if err := w.db.SQL.QueryRow(`SELECT signal_id::text FROM ` + projbriefing.Schema + `.signals WHERE type = 'competitive_filing' LIMIT 1`).Scan(&id); err != nil {
		t.Fatal(err)
	}
	path := "/api/v1/internal/intelligence/consume-signal?signal_id=" + id + "&agent=scout"
	var wg sync.WaitGroup
	answers := make([]reply, 40)
	for i := range answers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			answers[i] = w.callAs(w.procs[i%2], key, "POST", path, nil)
		}()
	}
	wg.Wait()
	for _, a := range answers {
		if a.Status != http.StatusOK || a.Body["consumed_at"] != answers[0].Body["consumed_at"] {
			t.Fatalf("a consume: %d %s", a.Status, a.Raw)
		}
	}
	if n := w.count(`SELECT count(*) FROM es.events WHERE event_type = 'briefing.signal_consumed'`); n != 1 {
		t.Fatalf("%d consumption events, want 1", n)
	}
	_ = second
}

package voice_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/domain/voice"
	"github.com/strata-platform/strata/eventstore"
	projvoice "github.com/strata-platform/strata/projections/voice"
)

// seedCall appends a call's life as a provider would have reported it.
func (w *world) seedCall(t *testing.T, u *user, dir string, at time.Time, answerAfter, talk time.Duration, status, agent, disposition, queue string) {
	t.Helper()
	id := uuid.Must(uuid.NewV7()).String()
	evs := []kernel.Event{&voice.CallRequested{CallID: id, Tenant: u.Org, Direction: dir, Line: "+14155550100", Party: "p-" + id[:8],
		AgentID: agent, QueueID: queue, Provider: "sip", RequestedBy: u.ID, At: at}}
	seq := 2
	if answerAfter > 0 {
		evs = append(evs, &voice.CallAnswered{Step: voice.Step{CallID: id, Seq: seq, SIPCode: 200, At: at.Add(answerAfter)}})
		seq++
	}
	dur := int((talk + time.Second - 1) / time.Second)
	evs = append(evs, &voice.CallEnded{Step: voice.Step{CallID: id, Seq: seq, At: at.Add(answerAfter + talk)}, Status: status, Duration: dur})
	if disposition != "" {
		evs = append(evs, &voice.CallDispositionSet{CallID: id, Disposition: disposition, By: u.ID, At: at})
	}
	app, err := w.Platform.Store.Append(context.Background(), eventstore.Stream{Type: voice.StreamCall, ID: id}, eventstore.NoStream, evs...)
	if err != nil {
		t.Fatal(err)
	}
	w.settle(t, app.Last)
}

func (w *world) settle(t *testing.T, key eventstore.Key) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := w.Runner.WaitFor(ctx, key, projvoice.Name); err != nil {
		t.Fatal(err)
	}
}

func TestAnalyticsFromRecordedCalls(t *testing.T) {
	w := start(t, options{})
	u, other := w.user(t, "ann@example.com"), w.user(t, "bob@example.com")
	day := time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)
	w.seedCall(t, u, "outbound", day.Add(9*time.Hour), 5*time.Second, 61*time.Second, "completed", "agent-a", "interested", "")
	w.seedCall(t, u, "outbound", day.Add(9*time.Hour+30*time.Minute), 0, 0, "busy", "agent-a", "", "")
	w.seedCall(t, u, "inbound", day.Add(26*time.Hour), 10*time.Second, 30*time.Second, "completed", "agent-b", "interested", "11111111-1111-4111-8111-111111111111")
	w.seedCall(t, u, "inbound", day.Add(27*time.Hour), 0, 0, "canceled", "", "", "11111111-1111-4111-8111-111111111111")
	w.seedCall(t, other, "outbound", day.Add(9*time.Hour), time.Second, time.Minute, "completed", "x", "", "")

	var vol struct {
		Buckets []struct {
			PeriodStart string `json:"period_start"`
			Total       int    `json:"total"`
			Inbound     int    `json:"inbound"`
			Answered    int    `json:"answered"`
			Busy        int    `json:"busy"`
			TalkSeconds int    `json:"talk_seconds"`
		} `json:"buckets"`
	}
	if st, raw := w.do(t, u, "GET", "/api/v1/analytics/call-volume?interval=day&date_start=2026-11-19&date_end=2026-11-22", nil, &vol); st != 200 || len(vol.Buckets) != 4 {
		t.Fatalf("volume: %d %s", st, raw)
	}
	b := vol.Buckets
	if b[0].Total != 0 || b[1].Total != 2 || b[1].Busy != 1 || b[1].Answered != 1 || b[1].TalkSeconds != 61 || b[2].Inbound != 2 || b[3].Total != 0 ||
		b[1].PeriodStart != "2026-11-20T00:00:00Z" {
		t.Fatalf("day buckets: %+v", b)
	}
	if st, _ := w.do(t, u, "GET", "/api/v1/analytics/call-volume?interval=hour&date_start=2026-11-20T09:00:00Z&date_end=2026-11-20T11:00:00Z", nil, &vol); st != 200 ||
		len(vol.Buckets) != 2 || vol.Buckets[0].Total != 2 {
		t.Fatalf("hour buckets: %+v", vol.Buckets)
	}
	w.wantError(t, u, "GET", "/api/v1/analytics/call-volume?interval=minute", nil, 400, "bad_request", "interval")
	w.wantError(t, u, "GET", "/api/v1/analytics/call-volume?interval=hour&date_start=2026-01-01&date_end=2026-11-01", nil, 400, "bad_request", "date_start")
	w.wantError(t, u, "GET", "/api/v1/analytics/call-volume?date_start=2026-11-22&date_end=2026-11-21", nil, 400, "bad_request", "date_end")

	var agents struct {
		Agents []struct {
			AgentID    string  `json:"agent_id"`
			Calls      int     `json:"calls"`
			AnswerRate float64 `json:"answer_rate"`
		} `json:"agents"`
	}
	w.do(t, u, "GET", "/api/v1/analytics/agent-performance?date_start=2026-11-01&date_end=2026-11-30", nil, &agents)
	if len(agents.Agents) != 3 || agents.Agents[0].AgentID != "agent-a" || agents.Agents[0].Calls != 2 || agents.Agents[0].AnswerRate != 0.5 {
		t.Fatalf("agents: %+v", agents)
	}
	var queues struct {
		Queues []struct {
			Calls       int     `json:"calls"`
			Answered    int     `json:"answered"`
			Abandoned   int     `json:"abandoned"`
			AverageWait float64 `json:"average_wait_seconds"`
		} `json:"queues"`
	}
	w.do(t, u, "GET", "/api/v1/analytics/queue-reports?date_start=2026-11-01&date_end=2026-11-30", nil, &queues)
	if len(queues.Queues) != 1 || queues.Queues[0].Calls != 2 || queues.Queues[0].Abandoned != 1 || queues.Queues[0].AverageWait != 10 {
		t.Fatalf("queues: %+v", queues)
	}
	var disp struct {
		Total        int `json:"total"`
		Dispositions []struct {
			Disposition string  `json:"disposition"`
			Count       int     `json:"count"`
			Share       float64 `json:"share"`
		} `json:"dispositions"`
	}
	w.do(t, u, "GET", "/api/v1/analytics/dispositions?date_start=2026-11-01&date_end=2026-11-30", nil, &disp)
	if disp.Total != 4 || disp.Dispositions[0].Count != 2 || disp.Dispositions[0].Share != 0.5 {
		t.Fatalf("dispositions: %+v", disp)
	}
}

func TestBillingUsageOfTheMonth(t *testing.T) {
	w := start(t, options{})
	u := w.user(t, "ann@example.com")
	now := time.Date(2026, 11, 27, 15, 0, 0, 0, time.UTC)                                                      // the harness's clock
	w.seedCall(t, u, "outbound", now.Add(-time.Hour), time.Second, 61*time.Second, "completed", "", "", "")    // 2 minutes
	w.seedCall(t, u, "outbound", now.Add(-2*time.Hour), time.Second, 59*time.Second, "completed", "", "", "")  // 1 minute
	w.seedCall(t, u, "inbound", now.Add(-3*time.Hour), time.Second, 120*time.Second, "completed", "", "", "")  // 2 minutes
	w.seedCall(t, u, "outbound", now.AddDate(0, -1, 0), time.Second, 600*time.Second, "completed", "", "", "") // last month
	for i, seg := range []int{1, 3} {
		id := uuid.Must(uuid.NewV7()).String()
		app, err := w.Platform.Store.Append(context.Background(), eventstore.Stream{Type: voice.StreamMessage, ID: id}, eventstore.NoStream,
			&voice.MessageRequested{MessageID: id, Tenant: u.Org, Direction: "outbound", Line: "+14155550100", Party: "p" + string(rune('a'+i)),
				Segments: seg, Encoding: "GSM-7", RequestedBy: u.ID, At: now.Add(-time.Minute)})
		if err != nil {
			t.Fatal(err)
		}
		w.settle(t, app.Last)
	}
	var use struct {
		OutboundMinutes int    `json:"outbound_minutes"`
		InboundMinutes  int    `json:"inbound_minutes"`
		SMSSegments     int    `json:"sms_segments"`
		ActiveSeats     int    `json:"active_seats"`
		PeriodStart     string `json:"period_start"`
	}
	if st, raw := w.do(t, u, "GET", "/api/v1/billing/usage", nil, &use); st != 200 || use.OutboundMinutes != 3 || use.InboundMinutes != 2 ||
		use.SMSSegments != 4 || use.ActiveSeats != 1 || use.PeriodStart != "2026-11-01T00:00:00Z" {
		t.Fatalf("usage: %d %s", st, raw)
	}
}

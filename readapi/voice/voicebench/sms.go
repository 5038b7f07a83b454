package voicebench

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"time"

	"github.com/strata-platform/strata/domain/voice"
	"github.com/strata-platform/strata/eventstore/storebench"
	projvoice "github.com/strata-platform/strata/projections/voice"
)

// sms is the SMS phase: its baseline (the minimal INSERT handler at the
// same rate), then POST /api/v1/sms/send, each MESSAGE answered 200 by a
// SIPp UAS at the trunk.
func (b *bench) sms(ctx context.Context) ([]storebench.Figure, error) {
	o := b.o
	n := int(o.Duration.Seconds()) * o.SMSRate
	o.Logf("baseline: minimal INSERT handler at %d/s for %s ...", o.SMSRate, o.Duration)
	baseHTTP, err := b.baseHTTP(ctx, o.SMSRate)
	if err != nil {
		return nil, err
	}
	body, _ := json.Marshal(map[string]any{"from_number": lineOut, "to_number": callee, "body": smsBody}) // strings always marshal
	if o.Warmup > 0 {
		w := int(o.Warmup.Seconds() * float64(o.SMSRate))
		o.Logf("sms: warm-up, %d messages (%d/s for %s), not measured ...", w, o.SMSRate, o.Warmup)
		uas, err := b.start(sippRun{Scenario: "uas_message.xml", Port: trunkPort(b.trunk), Calls: w, Timeout: o.Warmup + o.Drain,
			Vars: map[string]string{"to": regexp.QuoteMeta(callee), "status": "200", "reason": "OK"}})
		if err != nil {
			return nil, err
		}
		load(ctx, b.http, b.srv.URL+"/api/v1/sms/send", b.srv.Token, o.SMSRate, o.Warmup, func(int) []byte { return body })
		st, uerr := uas.wait(30 * time.Second)
		o.Logf("  SIPp UAS: %d MESSAGEs answered, %d failed%s", st.Successful, st.Failed, errLine(uerr))
		if _, err := quiesce(ctx, b.srv.DB, o.Drain); err != nil {
			return nil, err
		}
	}
	o.Logf("sms: %d messages (%d/s for %s) through POST /api/v1/sms/send, a SIPp UAS answering each MESSAGE 200 ...", n, o.SMSRate, o.Duration)
	uas, err := b.start(sippRun{Scenario: "uas_message.xml", Port: trunkPort(b.trunk), Calls: n, Timeout: o.Duration + o.Drain,
		Vars: map[string]string{"to": regexp.QuoteMeta(callee), "status": "200", "reason": "OK"}})
	if err != nil {
		return nil, err
	}
	lag := startLag(ctx, b.srv.DB)
	begin := time.Now()
	replies, span := load(ctx, b.http, b.srv.URL+"/api/v1/sms/send", b.srv.Token, o.SMSRate, o.Duration, func(int) []byte { return body })
	api := tally(replies, 201)
	sent := 0
	for _, r := range replies {
		var m struct {
			Status string `json:"status"`
		}
		if r.err == nil && r.status == 201 && json.Unmarshal(r.raw, &m) == nil && m.Status == "sent" {
			sent++
		}
	}
	o.Logf("  %d requests at %.1f/s: %d answered 201 (%d sent; %s), %d otherwise%s", len(replies), achieved(len(replies), span),
		len(api.ok), sent, ms(api.ok), api.other, example(api.example))
	lags, behind, err := lag.lags()
	if err != nil {
		return nil, err
	}
	o.Logf("  the %s projector behind the event store: %s; %d samples not caught up", projvoice.Name, ms(lags), behind)
	st, uerr := uas.wait(30 * time.Second)
	o.Logf("  SIPp UAS: %d MESSAGEs answered, %d failed, done %s after the first request%s", st.Successful, st.Failed,
		time.Since(begin).Round(time.Millisecond), errLine(uerr))
	msgs, err := loadStreams(ctx, b.srv.DB, voice.StreamMessage)
	if err != nil {
		return nil, err
	}
	parts := make([][]time.Duration, 5)
	for _, r := range replies {
		var v struct {
			ID string `json:"id"`
		}
		if r.err != nil || r.status != 201 || json.Unmarshal(r.raw, &v) != nil || msgs[v.ID] == nil {
			continue
		}
		req, ok1 := msgs[v.ID].Event("voice.message_requested")
		moved, ok2 := msgs[v.ID].Event("voice.message_status_changed")
		if !ok1 || !ok2 {
			continue
		}
		parts[0] = append(parts[0], req.At.Sub(r.start))
		parts[1] = append(parts[1], req.Latency())
		parts[2] = append(parts[2], moved.At.Sub(req.Recorded))
		parts[3] = append(parts[3], moved.Latency())
		parts[4] = append(parts[4], r.start.Add(r.elapsed).Sub(moved.Recorded))
	}
	o.Logf("  POST /sms/send, where the time goes: %s", Breakdown([]string{"request to message_requested's at (checks)",
		"at to INSERT (append)", "INSERT to message_status_changed's at (commit, SIP MESSAGE and its 200)", "at to INSERT (append)",
		"INSERT to answer (commit, read-model wait)"}, parts))
	figs := []storebench.Figure{Count(fmt.Sprintf("sms: POST /sms/send 201, status sent (of %d at %d/s)", n, o.SMSRate), "msgs", sent, n)}
	return append(figs, Quantiles(fmt.Sprintf("POST /sms/send at %d/s", o.SMSRate), fmt.Sprintf("minimal INSERT handler at %d/s", o.SMSRate),
		api.ok, baseHTTP, pcts, map[float64]float64{0.95: smsP95Ms})...), nil
}

package voicebench

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/strata-platform/strata/eventstore/storebench"
	projvoice "github.com/strata-platform/strata/projections/voice"
)

var (
	pcts       = []float64{0.5, 0.95, 0.99}
	eventMoves = []string{"voice.call_answered", "voice.call_ended"}
)

// outbound is the outbound phase: its baselines (the raw INSERT at the
// rate of the measured events, the minimal handler at the call rate),
// then the calls.
func (b *bench) outbound(ctx context.Context) ([]storebench.Figure, error) {
	o := b.o
	n := int(o.Duration.Seconds()) * o.CPS
	o.Logf("baseline: raw INSERT of an event at %d/s for %s (the rate of call_answered + call_ended) ...", 2*o.CPS, o.Duration)
	baseEv, bn, bspan, err := b.baseEvents(ctx, 2*o.CPS)
	if err != nil {
		return nil, err
	}
	o.Logf("  %d inserts at %.1f/s: recorded_at - at %s", bn, achieved(bn, bspan), ms(baseEv))
	o.Logf("baseline: minimal INSERT handler at %d/s for %s ...", o.CPS, o.Duration)
	baseHTTP, err := b.baseHTTP(ctx, o.CPS)
	if err != nil {
		return nil, err
	}

	if o.Warmup > 0 {
		o.Logf("outbound: warm-up, %d calls (%d/s for %s), not measured ...", int(o.Warmup.Seconds()*float64(o.CPS)), o.CPS, o.Warmup)
		w, err := b.place(ctx, o.Warmup)
		if err != nil {
			return nil, err
		}
		o.Logf("  %d answered 201, %d placed, %d callbacks received%s", len(tally(w.replies, 201).ok), len(w.out), w.received, errLine(w.sippErr))
		if _, err := quiesce(ctx, b.srv.DB, o.Drain); err != nil {
			return nil, err
		}
	}
	o.Logf("outbound: %d calls (%d/s for %s) through POST /api/v1/calls/outbound to a SIPp UAS (answer, 200 ms, BYE), status callbacks to %s ...",
		n, o.CPS, o.Duration, b.rcv.url)
	lag := startLag(ctx, b.srv.DB)
	p, err := b.place(ctx, o.Duration)
	if err != nil {
		return nil, err
	}
	replies, out := p.replies, p.out
	api := tally(replies, 201)
	o.Logf("  %d requests at %.1f/s: %d answered 201 (%s), %d otherwise%s", len(replies), achieved(len(replies), p.span),
		len(api.ok), ms(api.ok), api.other, example(api.example))
	o.Logf("  SIPp UAS: %d calls successful, %d failed%s", p.sipp.Successful, p.sipp.Failed, errLine(p.sippErr))
	ended, moves := 0, 0
	for _, c := range out {
		if _, ok := c.Ended(); ok {
			ended++
		}
		moves += c.Moves()
	}
	o.Logf("  %d calls placed, %d ended, %d status moves, %d callbacks received, %s after the first request", len(out), ended, moves,
		p.received, p.took.Round(time.Millisecond))
	lags, behind, err := lag.lags()
	if err != nil {
		return nil, err
	}
	o.Logf("  the %s projector (read-your-writes) behind the event store: %s; %d samples not caught up", projvoice.Name, ms(lags), behind)
	var jobsN, runs, snoozes int
	if err := b.srv.DB.QueryRowContext(ctx, `SELECT count(*), coalesce(sum(attempt), 0), coalesce(sum((metadata->>'snoozes')::int), 0)
		FROM jobs.river_job WHERE kind = 'voice.status_callback'`).Scan(&jobsN, &runs, &snoozes); err == nil {
		o.Logf("  status callback jobs so far (warm-up too): %d, %d attempts, %d snoozes (a callback waits 200 ms while the one before is unsettled or being delivered)",
			jobsN, runs, snoozes)
	}
	if d, err := quiesce(ctx, b.srv.DB, o.Drain); err != nil {
		return nil, err
	} else if d > time.Second {
		o.Logf("  waited %s more for the projector to catch up", d.Round(time.Millisecond))
	}

	var lat, latAns, latEnd []time.Duration
	completed, answered, inOrder, delivered, failedAttempts := 0, 0, 0, 0, 0
	outcomes := map[string]int{}
	var disorder []string
	for _, c := range out {
		if e, ok := c.Ended(); ok {
			outcomes[e.Status+" "+e.Reason]++
			if e.Status == "completed" && c.Has("voice.call_answered") {
				completed++
			}
		} else {
			outcomes["not ended"]++
		}
		if c.Has("voice.call_answered") {
			answered++
		}
		lat = append(lat, c.Latencies(eventMoves...)...)
		latAns = append(latAns, c.Latencies("voice.call_answered")...)
		latEnd = append(latEnd, c.Latencies("voice.call_ended")...)
		got := b.rcv.of(c.ID)
		if InOrder(got, c.Moves()) {
			inOrder++
		} else if len(disorder) < 3 {
			disorder = append(disorder, fmt.Sprintf("%s: %d moves, callbacks %v", c.ID, c.Moves(), got))
		}
		d, f := c.Attempts()
		delivered, failedAttempts = delivered+d, failedAttempts+f
	}
	byID := map[string]*call{}
	for _, c := range out {
		byID[c.ID] = c
	}
	parts := make([][]time.Duration, 3)
	for _, r := range replies {
		var v struct {
			ID string `json:"id"`
		}
		if r.err != nil || r.status != 201 || json.Unmarshal(r.raw, &v) != nil || byID[v.ID] == nil {
			continue
		}
		if e, ok := byID[v.ID].Event("voice.call_requested"); ok {
			parts[0] = append(parts[0], e.At.Sub(r.start))
			parts[1] = append(parts[1], e.Latency())
			parts[2] = append(parts[2], r.start.Add(r.elapsed).Sub(e.Recorded))
		}
	}
	o.Logf("  POST /calls/outbound, where the time goes: %s", Breakdown([]string{"request to call_requested's at (checks)",
		"at to INSERT (append)", "INSERT to answer (commit, read-model wait, the call's view)"}, parts))
	o.Logf("  outcomes %s; %d answered; callback attempts: %d delivered, %d failed%s", counts(outcomes), answered, delivered,
		failedAttempts, example(strings.Join(disorder, "; ")))
	o.Logf("  SIP -> event: call_answered %s; call_ended %s", ms(latAns), ms(latEnd))

	figs := []storebench.Figure{
		Count(fmt.Sprintf("outbound: POST /calls/outbound answered 201 (of %d at %d/s)", n, o.CPS), "calls", len(api.ok), n),
		Count("outbound: calls placed, answered and ended completed (no lost call event)", "calls", completed, n),
		Count("outbound: calls whose status callbacks all arrived, once each, in order", "calls", inOrder, n),
	}
	figs = append(figs, Quantiles("outbound: SIP 200/BYE -> call_answered/call_ended recorded", fmt.Sprintf("raw INSERT at %d/s", 2*o.CPS),
		lat, baseEv, pcts, map[float64]float64{0.99: eventP99Ms})...)
	figs = append(figs, Quantiles(fmt.Sprintf("POST /calls/outbound at %d/s", o.CPS), fmt.Sprintf("minimal INSERT handler at %d/s", o.CPS),
		api.ok, baseHTTP, pcts, nil)...)
	return figs, nil
}

// placed is what b.place saw.
type placed struct {
	replies  []reply
	span     time.Duration // from the first request to the last
	out      []*call       // every call the service placed meanwhile (its stream)
	received int           // the callbacks of those calls that arrived
	sipp     sippStats
	sippErr  error
	took     time.Duration // from the first request to the last end and callback
}

// place sends POST /api/v1/calls/outbound o.CPS times a second for d (a
// fresh SIPp UAS at the trunk answers each call, talks 200 ms and hangs
// up), then waits (up to o.Drain) for every call the service placed,
// whatever its request answered, to end and for all their callbacks.
func (b *bench) place(ctx context.Context, d time.Duration) (placed, error) {
	o := b.o
	var p placed
	n := int(d.Seconds() * float64(o.CPS))
	uas, err := b.start(sippRun{Scenario: "uas_answer_bye.xml", Port: trunkPort(b.trunk), Calls: n, Timeout: d + o.Drain,
		Vars: map[string]string{"to": regexp.QuoteMeta(callee), "from": regexp.QuoteMeta(lineOut), "call_id": "[0-9a-f-]{36}"}})
	if err != nil {
		return p, err
	}
	before, err := loadCalls(ctx, b.srv.DB)
	if err != nil {
		return p, err
	}
	begin := time.Now()
	p.replies, p.span = load(ctx, b.http, b.srv.URL+"/api/v1/calls/outbound", b.srv.Token, o.CPS, d, func(i int) []byte {
		raw, _ := json.Marshal(map[string]any{"from_number": lineOut, "to_number": callee,
			"status_callback_url": b.rcv.url + "?n=" + strconv.Itoa(i)}) // strings always marshal
		return raw
	})
	p.sipp, p.sippErr = uas.wait(o.Drain)
	deadline := time.Now().Add(o.Drain)
	for {
		calls, err := loadCalls(ctx, b.srv.DB)
		if err != nil {
			return p, err
		}
		p.out, p.received = p.out[:0], 0
		ended, moves := 0, 0
		for id, c := range calls {
			if before[id] != nil || c.Direction != "outbound" {
				continue
			}
			p.out = append(p.out, c)
			if _, ok := c.Ended(); ok {
				ended++
			}
			moves += c.Moves()
			p.received += len(b.rcv.of(id))
		}
		settled := ended == len(p.out) && p.received >= moves
		if settled && (len(p.out) >= n || time.Since(begin) > d+15*time.Second) || time.Now().After(deadline) {
			break
		}
		time.Sleep(time.Second)
	}
	p.took = time.Since(begin)
	return p, nil
}

// inbound is the inbound phase: its baseline (the raw INSERT at the call
// rate), then SIPp's calls to the IVR.
func (b *bench) inbound(ctx context.Context) ([]storebench.Figure, error) {
	o := b.o
	n := int(o.Duration.Seconds()) * o.CPS
	o.Logf("baseline: raw INSERT of an event at %d/s for %s (the rate of call_ended) ...", o.CPS, o.Duration)
	baseEv, bn, bspan, err := b.baseEvents(ctx, o.CPS)
	if err != nil {
		return nil, err
	}
	o.Logf("  %d inserts at %.1f/s: recorded_at - at %s", bn, achieved(bn, bspan), ms(baseEv))
	if o.Warmup > 0 {
		w := int(o.Warmup.Seconds() * float64(o.CPS))
		o.Logf("inbound: warm-up, %d calls (%d/s for %s), not measured ...", w, o.CPS, o.Warmup)
		uac, err := b.start(sippRun{Scenario: "uac_ivr.xml", Remote: b.srv.SIPAddr, Calls: w, Rate: o.CPS, Timeout: o.Warmup + o.Drain,
			Vars: map[string]string{"from": caller, "to": lineIVR, "digit": "1"}})
		if err != nil {
			return nil, err
		}
		st, uerr := uac.wait(o.Warmup + o.Drain)
		o.Logf("  SIPp UAC: %d calls successful, %d failed%s", st.Successful, st.Failed, errLine(uerr))
		if _, err := quiesce(ctx, b.srv.DB, o.Drain); err != nil {
			return nil, err
		}
	}
	before, err := loadCalls(ctx, b.srv.DB)
	if err != nil {
		return nil, err
	}
	o.Logf("inbound: %d calls (%d/s for %s) from a SIPp UAC to %s at %s: the IVR answers, key 1 a second later, we hang up ...",
		n, o.CPS, o.Duration, lineIVR, b.srv.SIPAddr)
	lag := startLag(ctx, b.srv.DB)
	begin := time.Now()
	uac, err := b.start(sippRun{Scenario: "uac_ivr.xml", Remote: b.srv.SIPAddr, Calls: n, Rate: o.CPS, Timeout: o.Duration + o.Drain,
		Vars: map[string]string{"from": caller, "to": lineIVR, "digit": "1"}})
	if err != nil {
		return nil, err
	}
	st, uerr := uac.wait(o.Duration + o.Drain)
	o.Logf("  SIPp UAC: %d calls successful, %d failed, done in %s%s", st.Successful, st.Failed, time.Since(begin).Round(time.Millisecond), errLine(uerr))

	var in []*call
	ended := 0
	deadline := time.Now().Add(o.Drain)
	for {
		calls, err := loadCalls(ctx, b.srv.DB)
		if err != nil {
			return nil, err
		}
		in, ended = in[:0], 0
		for id, c := range calls {
			if before[id] == nil && c.Direction == "inbound" {
				in = append(in, c)
				if _, ok := c.Ended(); ok {
					ended++
				}
			}
		}
		if (len(in) >= n && ended == len(in)) || time.Now().After(deadline) {
			break
		}
		time.Sleep(time.Second)
	}
	lags, behind, err := lag.lags()
	if err != nil {
		return nil, err
	}
	o.Logf("  the %s projector behind the event store: %s; %d samples not caught up", projvoice.Name, ms(lags), behind)
	if d, err := quiesce(ctx, b.srv.DB, o.Drain); err != nil {
		return nil, err
	} else if d > time.Second {
		o.Logf("  waited %s more for the projector to catch up", d.Round(time.Millisecond))
	}
	var lat []time.Duration
	outcomes := map[string]int{}
	hungUp := 0
	for _, c := range in {
		e, ok := c.Ended()
		if !ok {
			outcomes["not ended"]++
			continue
		}
		outcomes[e.Status+" "+e.Reason]++
		if e.Status == "completed" && c.Has("voice.call_digit_received") {
			hungUp++
		}
		lat = append(lat, c.Latencies("voice.call_ended")...)
	}
	o.Logf("  %d inbound calls recorded, %d ended (%s), %d after the caller's key; %s after the first call", len(in), ended,
		counts(outcomes), hungUp, time.Since(begin).Round(time.Millisecond))
	o.Logf("  SIP -> event: call_ended %s", ms(lat))
	figs := []storebench.Figure{
		Count(fmt.Sprintf("inbound: IVR calls recorded with their end, completed after key 1 (of %d at %d/s)", n, o.CPS), "calls", hungUp, n),
	}
	figs = append(figs, Quantiles("inbound: SIP 200 to our BYE -> call_ended recorded", fmt.Sprintf("raw INSERT at %d/s", o.CPS),
		lat, baseEv, pcts, map[float64]float64{0.99: eventP99Ms})...)
	return figs, nil
}

// baseEvents runs the raw INSERT baseline at rate for o.Warmup, then
// measures it for o.Duration.
func (b *bench) baseEvents(ctx context.Context, rate int) ([]time.Duration, int, time.Duration, error) {
	if b.o.Warmup > 0 {
		if _, _, _, err := b.base.events(ctx, rate, b.o.Warmup); err != nil {
			return nil, 0, 0, err
		}
	}
	return b.base.events(ctx, rate, b.o.Duration)
}

// baseHTTP runs the minimal INSERT handler at rate for o.Warmup, then
// for the phase's duration, and returns the latter's latencies.
func (b *bench) baseHTTP(ctx context.Context, rate int) ([]time.Duration, error) {
	body := func(int) []byte {
		raw, _ := json.Marshal(map[string]any{"from_number": lineOut, "to_number": callee, "body": smsBody}) // strings always marshal
		return raw
	}
	if b.o.Warmup > 0 {
		load(ctx, b.http, b.base.url, "", rate, b.o.Warmup, body)
	}
	replies, span := load(ctx, b.http, b.base.url, "", rate, b.o.Duration, body)
	out := tally(replies, 201)
	b.o.Logf("  %d requests at %.1f/s: %s", len(replies), achieved(len(replies), span), ms(out.ok))
	if out.other > 0 {
		return nil, fmt.Errorf("voicebench: the baseline handler failed %d requests: %s", out.other, out.example)
	}
	return out.ok, nil
}

// trunkPort is the port of a 127.0.0.1:port address.
func trunkPort(addr string) int {
	_, p, _ := strings.Cut(addr, ":")
	n, _ := strconv.Atoi(p)
	return n
}

// counts prints a map of counts, largest first.
func counts(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return m[keys[i]] > m[keys[j]] || m[keys[i]] == m[keys[j]] && keys[i] < keys[j] })
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%d %s", m[k], k)
	}
	return strings.Join(parts, ", ")
}

func example(s string) string {
	if s == "" {
		return ""
	}
	return " (" + s + ")"
}

func errLine(err error) string {
	if err == nil {
		return ""
	}
	return "\n" + err.Error()
}

package main

import (
	"context"
	"testing"
	"time"

	"github.com/strata-platform/strata/commands/voice/telephony/sipptest"
	"github.com/strata-platform/strata/eventstore/pgtest"
	"github.com/strata-platform/strata/readapi/voice/voicebench"
)

// The voice bench runs end to end at a tiny load through `strata serve`
// (production wiring: the SIP adapter facing SIPp, the voice.v1
// projector, status callbacks as jobs) on a test database, and reports
// every figure with a value, and its baseline where it has one. No target
// is asserted: targets are checked by the command, never in tests.
func TestBenchVoiceReportsEveryFigure(t *testing.T) {
	t.Parallel()
	sipptest.Require(t)
	db := pgtest.DB(t)
	cfg, err := loadConfig(map[string]string{"STRATA_LOG_LEVEL": "error"})
	if err != nil {
		t.Fatal(err)
	}
	var logs syncBuffer
	c := &command{cfg: cfg, stdout: &logs, stderr: &logs, wiring: productionWiring, logger: newLogger(&logs, cfg.LogLevel)}
	o := voicebench.Quick()
	o.CPS, o.SMSRate, o.Duration, o.Warmup, o.Drain = 4, 8, time.Second, 500*time.Millisecond, time.Minute
	o.Progress = &logs
	o.Start = func(ctx context.Context, trunk string) (*voicebench.Server, error) {
		return c.benchVoiceServer(ctx, db.URL, db.SQL, trunk)
	}
	rep, err := voicebench.Run(context.Background(), o)
	if err != nil {
		t.Fatalf("%v\n%s", err, logs.String())
	}
	want := []wantFigure{
		{"outbound: POST /calls/outbound answered 201 (of 4 at 4/s)", false},
		{"outbound: calls placed, answered and ended completed (no lost call event)", false},
		{"outbound: calls whose status callbacks all arrived, once each, in order", false},
		{"outbound: SIP 200/BYE -> call_answered/call_ended recorded p50 (base: raw INSERT at 8/s)", true},
		{"outbound: SIP 200/BYE -> call_answered/call_ended recorded p95 (base: raw INSERT at 8/s)", true},
		{"outbound: SIP 200/BYE -> call_answered/call_ended recorded p99 (base: raw INSERT at 8/s)", true},
		{"POST /calls/outbound at 4/s p50 (base: minimal INSERT handler at 4/s)", true},
		{"POST /calls/outbound at 4/s p95 (base: minimal INSERT handler at 4/s)", true},
		{"POST /calls/outbound at 4/s p99 (base: minimal INSERT handler at 4/s)", true},
		{"inbound: IVR calls recorded with their end, completed after key 1 (of 4 at 4/s)", false},
		{"inbound: SIP 200 to our BYE -> call_ended recorded p50 (base: raw INSERT at 4/s)", true},
		{"inbound: SIP 200 to our BYE -> call_ended recorded p95 (base: raw INSERT at 4/s)", true},
		{"inbound: SIP 200 to our BYE -> call_ended recorded p99 (base: raw INSERT at 4/s)", true},
		{"sms: POST /sms/send 201, status sent (of 8 at 8/s)", false},
		{"POST /sms/send at 8/s p50 (base: minimal INSERT handler at 8/s)", true},
		{"POST /sms/send at 8/s p95 (base: minimal INSERT handler at 8/s)", true},
		{"POST /sms/send at 8/s p99 (base: minimal INSERT handler at 8/s)", true},
	}
	checkFigures(t, rep, want, false, logs.String())
}

package voice

import (
	"errors"
	"testing"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

var t0 = time.Date(2026, 11, 27, 15, 0, 0, 0, time.UTC)

func requested(t *testing.T) *Call {
	t.Helper()
	evs, err := RequestCall(CallRequest{CallID: "c1", Tenant: "org", Line: "+14155550100", Party: "p", To: "+14155550123", At: t0})
	if err != nil {
		t.Fatal(err)
	}
	c := &Call{}
	c.Apply(evs[0])
	return c
}

func apply(t *testing.T, c *Call, m Move) []kernel.Event {
	t.Helper()
	evs, err := c.Progress(m)
	if err != nil {
		t.Fatalf("%s: %v", m.Kind, err)
	}
	for _, e := range evs {
		c.Apply(e)
	}
	return evs
}

func TestCallLifeNumbersEveryStatusMove(t *testing.T) {
	c := requested(t)
	if c.Status != StatusQueued || c.Seq != 1 {
		t.Fatalf("requested: %s %d", c.Status, c.Seq)
	}
	steps := []struct {
		m      Move
		status string
	}{
		{Move{Kind: MoveDialing, At: t0, SIPCode: 100}, StatusInitiated},
		{Move{Kind: MoveRinging, At: t0.Add(time.Second), SIPCode: 180}, StatusRinging},
		{Move{Kind: MoveAnswered, At: t0.Add(3 * time.Second), SIPCode: 200}, StatusInProgress},
		{Move{Kind: MoveEnded, At: t0.Add(13*time.Second + time.Millisecond), Outcome: StatusCompleted, Reason: "remote_hangup"}, StatusCompleted},
	}
	for i, s := range steps {
		evs := apply(t, c, s.m)
		if len(evs) != 1 || c.Status != s.status || c.Seq != i+2 {
			t.Fatalf("step %d: %d events, status %s seq %d", i, len(evs), c.Status, c.Seq)
		}
	}
	if c.Duration != 11 {
		t.Fatalf("duration = %d, want 11 (10.001 s rounded up)", c.Duration)
	}
	_, err := c.Progress(Move{Kind: MoveRinging, At: t0})
	if kernel.KindOf(err) != kernel.KindConflict {
		t.Fatalf("move after the end: %v", err)
	}
}

func TestStaleAndDuplicateReportsMakeNothing(t *testing.T) {
	c := requested(t)
	apply(t, c, Move{Kind: MoveAnswered, At: t0, SIPCode: 200})
	for _, k := range []string{MoveDialing, MoveRinging, MoveAnswered, MoveResumed} {
		if evs := apply(t, c, Move{Kind: k, At: t0}); len(evs) != 0 {
			t.Fatalf("%s after the answer made %d events", k, len(evs))
		}
	}
}

func TestCompletedWithoutAnswerIsFailed(t *testing.T) {
	c := requested(t)
	apply(t, c, Move{Kind: MoveEnded, At: t0, Outcome: StatusCompleted})
	if c.Status != StatusFailed || c.Duration != 0 {
		t.Fatalf("status %s duration %d", c.Status, c.Duration)
	}
}

func TestTerminalOutcomes(t *testing.T) {
	for _, o := range []string{StatusBusy, StatusNoAnswer, StatusCanceled, StatusFailed} {
		c := requested(t)
		apply(t, c, Move{Kind: MoveRinging, At: t0})
		apply(t, c, Move{Kind: MoveEnded, At: t0.Add(time.Second), Outcome: o})
		if c.Status != o || !c.Over() || c.Seq != 3 {
			t.Fatalf("%s: status %s seq %d", o, c.Status, c.Seq)
		}
	}
	c := requested(t)
	if _, err := c.Progress(Move{Kind: MoveEnded, Outcome: StatusRinging}); kernel.KindOf(err) != kernel.KindInvalid {
		t.Fatalf("non-terminal outcome: %v", err)
	}
}

func TestHoldResumeTransfer(t *testing.T) {
	c := requested(t)
	if evs := apply(t, c, Move{Kind: MoveHeld, At: t0}); len(evs) != 0 {
		t.Fatal("hold before the answer")
	}
	apply(t, c, Move{Kind: MoveAnswered, At: t0})
	apply(t, c, Move{Kind: MoveHeld, At: t0})
	if !c.OnHold || c.Status != StatusInProgress {
		t.Fatal("not held")
	}
	apply(t, c, Move{Kind: MoveResumed, At: t0})
	apply(t, c, Move{Kind: MoveTransferred, At: t0, TransferType: "warm", Target: "+442071838750"})
	if !c.Transferred || c.OnHold || c.Seq != 5 {
		t.Fatalf("transfer: %+v", c)
	}
}

func TestE164(t *testing.T) {
	for _, ok := range []string{"+14155550123", "+442071838750", "+861012345678901"[:16]} {
		if err := CheckE164("to_number", ok); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	for _, bad := range []string{"", "14155550123", "+04155550123", "+1415555", "+1415555012345678", "+1 415 555 0123", "+1415555O123"} {
		err := CheckE164("to_number", bad)
		var ke *kernel.Error
		if !errors.As(err, &ke) || ke.Field != "to_number" {
			t.Errorf("%q accepted or unnamed: %v", bad, err)
		}
	}
}

func TestCallingHours(t *testing.T) {
	ny, _ := time.LoadLocation("America/New_York")
	la, _ := time.LoadLocation("America/Los_Angeles")
	tokyo, _ := time.LoadLocation("Asia/Tokyo")
	at := func(loc *time.Location, h, m int) time.Time { return time.Date(2026, 11, 27, h, m, 0, 0, loc) }
	cases := []struct {
		now   time.Time
		zones []*time.Location
		ok    bool
	}{
		{at(ny, 8, 0), []*time.Location{ny}, true},
		{at(ny, 7, 59), []*time.Location{ny}, false},
		{at(ny, 20, 59), []*time.Location{ny}, true},
		{at(ny, 21, 0), []*time.Location{ny}, false},
		{at(ny, 10, 0), []*time.Location{ny, la}, false}, // 07:00 in Los Angeles: the strictest window
		{at(ny, 11, 0), []*time.Location{ny, la}, true},
		{at(ny, 12, 0), []*time.Location{tokyo}, false}, // 02:00 in Tokyo
		{at(ny, 12, 0), nil, false},
	}
	for i, c := range cases {
		err := CheckCallingHours(c.now, c.zones)
		if (err == nil) != c.ok {
			t.Errorf("case %d: %v", i, err)
		}
		var ke *kernel.Error
		if err != nil && (!errors.As(err, &ke) || ke.Rule != "calling_hours" || ke.Kind != kernel.KindUnprocessable) {
			t.Errorf("case %d: refusal names no rule: %v", i, err)
		}
	}
}

func TestDoNotCallList(t *testing.T) {
	tn := &Tenant{}
	evs, err := tn.AddDNC("org", "p1", "+14155550123", SourceAPI, "", "u", t0)
	if err != nil || len(evs) != 1 {
		t.Fatal(err)
	}
	tn.Apply(evs[0])
	if !tn.Blocked("p1") || tn.Blocked("p2") {
		t.Fatal("blocked wrong party")
	}
	if evs, _ := tn.AddDNC("org", "p1", "+14155550123", SourceStop, "", "", t0); len(evs) != 0 {
		t.Fatal("second listing recorded")
	}
	err = DoNotCall("to_number")
	if kernel.KindOf(err) != kernel.KindUnavailableForLegalReasons {
		t.Fatal(err)
	}
	tn.Apply(tn.RemoveDNC("org", "p1", SourceStart, "", t0)[0])
	if tn.Blocked("p1") || len(tn.RemoveDNC("org", "p1", SourceAPI, "", t0)) != 0 {
		t.Fatal("not removed, or removed twice")
	}
}

func TestKeywords(t *testing.T) {
	for body, want := range map[string]string{"STOP": SourceStop, " stop\n": SourceStop, "Unsubscribe": SourceStop,
		"start": SourceStart, "YES": SourceStart, "stop please": "", "": ""} {
		if got := Keyword(body); got != want {
			t.Errorf("%q: %q, want %q", body, got, want)
		}
	}
}

func TestNumberPurchaseOnce(t *testing.T) {
	n := &Number{}
	evs, err := n.Import(NumberImported{NumberID: "n1", Phone: "+14155550100", Country: "US", NumberType: TypeLocal, At: t0})
	if err != nil {
		t.Fatal(err)
	}
	n.Apply(evs[0])
	evs, err = n.Purchase("a", "Main", "u", t0)
	if err != nil {
		t.Fatal(err)
	}
	n.Apply(evs[0])
	if _, err := n.Purchase("b", "", "u", t0); kernel.KindOf(err) != kernel.KindConflict {
		t.Fatalf("second buyer: %v", err)
	}
	if _, err := n.Configure("b", "x", nil, "u", t0); kernel.KindOf(err) != kernel.KindNotFound {
		t.Fatalf("other tenant configures: %v", err)
	}
	if _, err := n.Configure("a", "", &Routing{Type: "pbx"}, "u", t0); kernel.KindOf(err) != kernel.KindInvalid {
		t.Fatalf("bad routing: %v", err)
	}
	evs, _ = n.Release("a", "u", t0)
	n.Apply(evs[0])
	if n.Tenant != "" {
		t.Fatal("not released")
	}
}

func TestVoicemailMoves(t *testing.T) {
	c := requested(t)
	c.Apply(&VoicemailLeft{CallID: "c1", VoicemailID: "v1", RecordingID: "r1", At: t0})
	if c.VoicemailStatus != VoicemailNew {
		t.Fatal(c.VoicemailStatus)
	}
	steps := []struct {
		to   string
		kind kernel.Kind
	}{
		{VoicemailArchived, 0}, {VoicemailNew, kernel.KindConflict}, {VoicemailRead, 0}, {VoicemailRead, -1},
		{VoicemailNew, 0}, {"deleted", kernel.KindInvalid},
	}
	for i, s := range steps {
		evs, err := c.MoveVoicemail("v1", s.to, "u", t0)
		switch {
		case s.kind == 0 && (err != nil || len(evs) != 1):
			t.Fatalf("step %d to %s: %v", i, s.to, err)
		case s.kind == -1 && (err != nil || len(evs) != 0):
			t.Fatalf("step %d: same status made %d events, %v", i, len(evs), err)
		case s.kind > 0 && kernel.KindOf(err) != s.kind:
			t.Fatalf("step %d to %s: %v", i, s.to, err)
		}
		for _, e := range evs {
			c.Apply(e)
		}
	}
	if _, err := c.MoveVoicemail("v2", VoicemailRead, "u", t0); kernel.KindOf(err) != kernel.KindNotFound {
		t.Fatal(err)
	}
}

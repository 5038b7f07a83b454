package kernel

import (
	"testing"
	"time"
)

func TestOffsetClockFlowsAndAdvances(t *testing.T) {
	c := NewOffsetClock(time.Hour)
	if d := c.Now().Sub(time.Now()); d < 59*time.Minute || d > 61*time.Minute {
		t.Fatalf("offset %s, want an hour", d)
	}
	a := c.Now()
	time.Sleep(5 * time.Millisecond)
	if !c.Now().After(a) {
		t.Fatal("the clock does not flow")
	}
	c.Advance(24 * time.Hour)
	if d := c.Now().Sub(time.Now()); d < 25*time.Hour-time.Minute || d > 25*time.Hour+time.Minute {
		t.Fatalf("offset %s after a day's advance, want 25h", d)
	}
	if c.Now().Location() != time.UTC {
		t.Fatal("not UTC")
	}
}

package wire

import (
	"testing"
	"time"
)

func TestDays(t *testing.T) {
	from := time.Date(2026, 2, 27, 23, 0, 0, 0, time.FixedZone("x", -3*3600)) // 2026-02-28 UTC
	days := Days(from, time.Date(2026, 3, 1, 5, 0, 0, 0, time.UTC))
	if len(days) != 2 || days[0] != time.Date(2026, 2, 28, 0, 0, 0, 0, time.UTC) {
		t.Errorf("%v", days)
	}
	if len(Days(days[1], days[0])) != 0 {
		t.Error("an empty range has days")
	}
}

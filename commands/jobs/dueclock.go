package jobs

import (
	"time"

	"github.com/riverqueue/river/rivertype"

	"github.com/strata-platform/strata/domain/kernel"
)

// dueTime is River's time generator over Config.DueClock: River then
// inserts, fetches, schedules and retries by that clock instead of the
// process's and the database's, so a test that advances the clock runs a
// job scheduled a day ahead.
type dueTime struct{ clock kernel.Clock }

var _ rivertype.TimeGenerator = dueTime{}

// Now returns the clock's time.
func (d dueTime) Now() time.Time { return d.clock.Now() }

// NowOrNil returns the clock's time: River then passes it to its queries
// instead of the database's now().
func (d dueTime) NowOrNil() *time.Time {
	t := d.clock.Now().UTC()
	return &t
}

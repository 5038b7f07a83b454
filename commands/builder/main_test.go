package builder_test

import (
	"testing"

	"github.com/strata-platform/strata/eventstore/pgtest"
)

// TestMain runs the package's tests on pgtest's PostgreSQL and stops it
// after them (the one TestMain of the package).
func TestMain(m *testing.M) { pgtest.Main(m) }

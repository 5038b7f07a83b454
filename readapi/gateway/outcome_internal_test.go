package gateway

import (
	"context"
	"testing"

	"github.com/strata-platform/strata/domain/gateway/credits"
)

// TestOutcomeOfAStreamTheUpstreamCut: a stream the upstream ended with an
// error is interrupted even when the client, having read the error, left
// before the usage was recorded (the race a client that closes at once on
// an error event runs).
func TestOutcomeOfAStreamTheUpstreamCut(t *testing.T) {
	gone, cancel := context.WithCancel(context.Background())
	cancel()
	live := context.Background()
	for _, tc := range []struct {
		name string
		ctx  context.Context
		u    ChatUsage
		want string
	}{
		{"completed", live, ChatUsage{Status: 200}, credits.StatusCompleted},
		{"cut by the upstream, client still there", live, ChatUsage{Status: 200, Estimated: true, CutByUpstream: true}, credits.StatusInterrupted},
		{"cut by the upstream, client left after", gone, ChatUsage{Status: 200, Estimated: true, CutByUpstream: true}, credits.StatusInterrupted},
		{"client left mid-stream", gone, ChatUsage{Status: 200, Estimated: true}, credits.StatusDisconnected},
		{"refused", live, ChatUsage{Status: 500}, credits.StatusFailed},
		{"refused, client gone", gone, ChatUsage{Status: 500}, credits.StatusDisconnected},
	} {
		if got := outcome(tc.ctx, tc.u); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
}

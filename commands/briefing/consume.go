package briefing

import (
	"context"
	stdsql "database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/strata-platform/strata/domain/briefing"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
	projbriefing "github.com/strata-platform/strata/projections/briefing"
)

// Consumption is an agent's consumption of a signal.
type Consumption struct {
	Status     string    `json:"status"`
	SignalID   string    `json:"signal_id"`
	ConsumedBy string    `json:"consumed_by"`
	ConsumedAt time.Time `json:"consumed_at"`
	// Already is true when this call found the consumption recorded
	// before (by an earlier or a concurrent call).
	Already bool `json:"already_consumed"`
}

// Consume records that agent consumed the signal: the first call appends
// briefing.signal_consumed on the agent's stream for that signal (created
// there, so a second append clashes); every call, concurrent or later,
// answers with that one consumption. Another agent still sees the signal.
// An unknown signal is not found; a signal of a type the agent's mapping
// excludes is invalid.
func (s *Service) Consume(ctx context.Context, agentName, signalID string) (Consumption, error) {
	agent, err := s.Agent(agentName)
	if err != nil {
		return Consumption{}, err
	}
	id, err := uuid.Parse(signalID)
	if err != nil || len(signalID) != 36 {
		return Consumption{}, kernel.Invalid("signal_id", "uuid", "signal_id must be a signal's id (a UUID)")
	}
	signalID = id.String()
	typ, err := s.signalType(ctx, signalID)
	if err != nil {
		return Consumption{}, err
	}
	if !agent.Sees(typ) {
		return Consumption{}, &kernel.Error{Kind: kernel.KindInvalid, Field: "signal_id", Rule: "agent_mapping",
			Message: fmt.Sprintf("agent %s is not given %s signals; it cannot consume %s", agent.Name, typ, signalID)}
	}
	stream := eventstore.Stream{Type: briefing.StreamConsumption, ID: briefing.ConsumptionStream(agent.Name, signalID)}
	ev := &briefing.SignalConsumed{SignalID: signalID, Agent: agent.Name, SignalType: typ, At: s.Now()}
	// The consumption is projected inline, in the append's transaction:
	// the agent's next briefing depends on it, and waiting for the
	// projector made every consume wait a projector round trip. The
	// projector's own insert of the same row does nothing.
	err = s.store.InTx(ctx, func(tx *stdsql.Tx) error {
		if _, err := s.store.AppendTx(ctx, tx, stream, eventstore.NoStream, ev); err != nil {
			return err
		}
		return projbriefing.ApplyConsumedTx(ctx, tx, ev)
	})
	if kernel.KindOf(err) == kernel.KindConflict {
		return s.recorded(ctx, stream.ID)
	}
	if err != nil {
		return Consumption{}, err
	}
	return Consumption{Status: "ok", SignalID: signalID, ConsumedBy: agent.Name, ConsumedAt: ev.At}, nil
}

// recorded reads the consumption recorded on a consumption stream.
func (s *Service) recorded(ctx context.Context, streamID string) (Consumption, error) {
	envs, err := s.store.Load(ctx, streamID, eventstore.LoadOptions{UpToVersion: 1})
	if err != nil {
		return Consumption{}, err
	}
	if len(envs) == 0 {
		return Consumption{}, fmt.Errorf("briefing: consumption stream %s is empty after a clash", streamID)
	}
	c, ok := envs[0].Event.(*briefing.SignalConsumed)
	if !ok {
		return Consumption{}, fmt.Errorf("briefing: %s holds a %s", streamID, envs[0].Type)
	}
	return Consumption{Status: "ok", SignalID: c.SignalID, ConsumedBy: c.Agent, ConsumedAt: c.At.UTC(), Already: true}, nil
}

// signalType finds a signal's type in the read model; a miss waits once
// for the read model to catch up (a signal another process just found).
func (s *Service) signalType(ctx context.Context, signalID string) (string, error) {
	if typ, ok := s.types.Get(signalID); ok {
		return typ, nil // a signal's type never changes
	}
	for attempt := 0; ; attempt++ {
		var typ string
		err := s.store.DB().QueryRowContext(ctx, `SELECT type FROM `+projbriefing.Schema+`.signals WHERE signal_id = $1`,
			signalID).Scan(&typ)
		switch {
		case err == nil:
			s.types.Add(signalID, typ)
			return typ, nil
		case !errors.Is(err, stdsql.ErrNoRows):
			return "", fmt.Errorf("briefing: find signal %s: %w", signalID, err)
		case attempt > 0:
			return "", &kernel.Error{Kind: kernel.KindNotFound, Field: "signal_id", Rule: "exists",
				Message: "no signal " + signalID}
		}
		wctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		err = s.catchUp(wctx)
		cancel()
		if err != nil {
			return "", err
		}
	}
}

package voice

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5/stdlib"

	"github.com/strata-platform/strata/commands/voice/telephony"
)

// Calls controlled from another process. A live call's SIP dialog lives in
// the process that placed or answered it; a hangup or transfer that
// reaches another process (behind a load balancer) is sent to it over
// PostgreSQL (pg_notify on ControlChannel), carried out there, and
// answered on ReplyChannel. RunControl runs the listening side.
const (
	ControlChannel = "strata_voice_control"
	ReplyChannel   = "strata_voice_control_reply"
)

// controlRequest is a hangup or transfer for the process holding Call.
type controlRequest struct {
	ID     string `json:"id"`
	Call   string `json:"call"`
	Action string `json:"action"` // hangup, transfer
	Target string `json:"target,omitempty"`
	Warm   bool   `json:"warm,omitempty"`
}

// controlReply is the holder's answer.
type controlReply struct {
	ID      string `json:"id"`
	OK      bool   `json:"ok"`
	Code    string `json:"code,omitempty"` // call_over, transfer_failed, provider
	Message string `json:"message,omitempty"`
}

// RunControl listens for control requests and replies until ctx ends,
// reconnecting after a lost connection. Calls this process holds are
// controlled for requests from other processes; replies wake this
// process's requests.
func (s *Service) RunControl(ctx context.Context) {
	for ctx.Err() == nil {
		err := s.listenControl(ctx)
		s.listening.Store(false)
		if ctx.Err() != nil {
			return
		}
		s.log.Warn("voice: control listener lost its connection", "err", err)
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Second):
		}
	}
}

func (s *Service) listenControl(ctx context.Context) error {
	conn, err := s.store.DB().Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	return conn.Raw(func(dc any) error {
		sc, ok := dc.(*stdlib.Conn)
		if !ok {
			return errors.New("voice: the database driver is not pgx")
		}
		pc := sc.Conn()
		if _, err := pc.Exec(ctx, "LISTEN "+ControlChannel+"; LISTEN "+ReplyChannel); err != nil {
			return err
		}
		s.listening.Store(true)
		for {
			n, err := pc.WaitForNotification(ctx)
			if err != nil {
				return err
			}
			switch n.Channel {
			case ControlChannel:
				var req controlRequest
				if json.Unmarshal([]byte(n.Payload), &req) == nil {
					go s.serveControl(ctx, req)
				}
			case ReplyChannel:
				var rep controlReply
				if json.Unmarshal([]byte(n.Payload), &rep) == nil {
					s.mu.Lock()
					ch := s.pending[rep.ID]
					s.mu.Unlock()
					if ch != nil {
						select {
						case ch <- rep:
						default:
						}
					}
				}
			}
		}
	})
}

// serveControl carries out a request for a call this process holds; a
// call it does not hold is another process's to answer.
func (s *Service) serveControl(ctx context.Context, req controlRequest) {
	s.mu.Lock()
	call := s.live[req.Call]
	if req.Action == "transfer" && call != nil {
		s.transfers[req.Call] = map[bool]string{true: TransferWarm, false: TransferCold}[req.Warm]
	}
	s.mu.Unlock()
	if call == nil {
		return
	}
	var err error
	switch req.Action {
	case "hangup":
		err = call.Hangup(ctx)
	case "transfer":
		err = call.Transfer(ctx, req.Target, req.Warm)
	default:
		err = fmt.Errorf("unknown action %q", req.Action)
	}
	rep := controlReply{ID: req.ID, OK: err == nil}
	switch {
	case err == nil:
	case errors.Is(err, telephony.ErrCallOver):
		rep.Code = "call_over"
	case errors.Is(err, telephony.ErrTransfer):
		rep.Code = "transfer_failed"
	default:
		rep.Code, rep.Message = "provider", err.Error()
	}
	b, _ := json.Marshal(rep)
	if _, err := s.store.DB().ExecContext(ctx, `SELECT pg_notify($1, $2)`, ReplyChannel, string(b)); err != nil {
		s.log.Warn("voice: control reply not sent", "call", req.Call, "err", err)
	}
}

// remoteCall controls a call held by another process.
type remoteCall struct {
	s  *Service
	id string
}

// Hangup implements telephony.Call.
func (r remoteCall) Hangup(ctx context.Context) error {
	return r.s.remote(ctx, controlRequest{Call: r.id, Action: "hangup"}, 10*time.Second)
}

// Transfer implements telephony.Call.
func (r remoteCall) Transfer(ctx context.Context, target string, warm bool) error {
	return r.s.remote(ctx, controlRequest{Call: r.id, Action: "transfer", Target: target, Warm: warm}, 60*time.Second)
}

// errNoHolder: no process answered for the call.
var errNoHolder = errors.New("voice: no server process controls this call (the one that placed it may have stopped)")

// remote sends req to the process holding the call and waits for its
// reply (bounded by limit).
func (s *Service) remote(ctx context.Context, req controlRequest, limit time.Duration) error {
	req.ID = NewID()
	ch := make(chan controlReply, 1)
	s.mu.Lock()
	s.pending[req.ID] = ch
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.pending, req.ID)
		s.mu.Unlock()
	}()
	b, _ := json.Marshal(req)
	if _, err := s.store.DB().ExecContext(ctx, `SELECT pg_notify($1, $2)`, ControlChannel, string(b)); err != nil {
		return err
	}
	select {
	case rep := <-ch:
		switch {
		case rep.OK:
			return nil
		case rep.Code == "call_over":
			return telephony.ErrCallOver
		case rep.Code == "transfer_failed":
			return telephony.ErrTransfer
		}
		return errors.New(rep.Message)
	case <-time.After(limit):
		return errNoHolder
	case <-ctx.Done():
		return ctx.Err()
	}
}

package builder

import (
	"context"
	"fmt"

	"github.com/strata-platform/strata/domain/builder"
	"github.com/strata-platform/strata/domain/builder/artifacts"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
)

// DefaultMaxTurns is how many turns (questions and answers) one Ask
// thread keeps at most.
const DefaultMaxTurns = 400

// AskRequest is an Ask question: the seed's fields (companyId and chatId
// are chat ids; the thread is kept only when both are given).
type AskRequest struct {
	artifacts.Question
	CompanyID string
	ChatID    string
}

// Answerer answers Ask questions from what is recorded about the company
// (facts; Chat nil when no company was named). Name, Provider and Model
// label its answers as ArtifactWriter's do. A model path gets the same
// facts as context; it must not answer a count it was not given.
type Answerer interface {
	Name() string
	Provider() string
	Model() string
	Answer(ctx context.Context, q AskRequest, facts artifacts.Facts) (artifacts.Reply, error)
}

// FactsAnswerer is the offline answerer: artifacts.Answer, a deterministic
// intent matcher over documented keywords, with every answer computed from
// the facts; any other question gets the plain no-model answer.
type FactsAnswerer struct{}

// Name implements Answerer.
func (FactsAnswerer) Name() string { return artifacts.AskGenerator }

// Provider implements Answerer.
func (FactsAnswerer) Provider() string { return artifacts.Provider }

// Model implements Answerer.
func (FactsAnswerer) Model() string { return artifacts.AskVersion }

// Answer implements Answerer.
func (FactsAnswerer) Answer(_ context.Context, q AskRequest, f artifacts.Facts) (artifacts.Reply, error) {
	return artifacts.Answer(q.Question.Question, f), nil
}

// Answered is an Ask answer and whether the thread kept it.
type Answered struct {
	Answer    string
	Generator string
	Provider  string
	Model     string
	Intents   []string
	Sources   []builder.AskSource
	Kept      bool
	Note      string // why nothing was kept, when Kept is false
}

// NotKeptNote says why a question without companyId and chatId was
// answered but not kept.
const NotKeptNote = "The thread is kept only when both companyId and chatId are given; this question and its answer were not kept."

// Ask answers a question: 400 for bad input (naming the field), 404 for an
// unknown companyId, 400 max_turns on a full thread. With companyId and
// chatId the question and its answer are appended together to the thread
// (builder.ask_turn, stream builder-ask:<companyId>:<chatId>); without
// them nothing is kept and the answer says so (Kept false, Note).
func (a *Artifacts) Ask(ctx context.Context, req AskRequest) (Answered, error) {
	if err := req.Question.Check(); err != nil {
		return Answered{}, err
	}
	for _, id := range []struct{ field, v string }{{"companyId", req.CompanyID}, {"chatId", req.ChatID}} {
		if id.v != "" {
			if err := CheckChatID(id.field, id.v); err != nil {
				return Answered{}, err
			}
		}
	}
	var f artifacts.Facts
	if req.CompanyID != "" {
		var err error
		if f, err = a.facts(ctx, req.CompanyID); err != nil {
			return Answered{}, err
		}
	}
	keep := req.CompanyID != "" && req.ChatID != ""
	stream := eventstore.Stream{Type: builder.StreamAsk, ID: builder.AskStream(req.CompanyID, req.ChatID)}
	var version int64
	if keep {
		var err error
		if version, err = a.cfg.Store.Version(ctx, stream.ID); err != nil {
			return Answered{}, fmt.Errorf("ask thread %s: %w", stream.ID, err)
		}
		if version+2 > int64(a.cfg.MaxTurns) {
			return Answered{}, fullThread(a.cfg.MaxTurns)
		}
	}
	an := a.cfg.Answerer
	r, err := an.Answer(ctx, req, f)
	if err != nil {
		return Answered{}, err
	}
	out := Answered{Answer: r.Text, Generator: an.Name(), Provider: an.Provider(), Model: an.Model(),
		Intents: r.Intents, Sources: r.Sources, Kept: keep}
	if !keep {
		out.Note = NotKeptNote
		return out, nil
	}
	q := &builder.AskTurn{CompanyID: req.CompanyID, ChatID: req.ChatID, Role: builder.RoleUser, Text: req.Question.Question, At: a.cfg.Clock.Now()}
	ans := &builder.AskTurn{CompanyID: req.CompanyID, ChatID: req.ChatID, Role: builder.RoleAssistant, Text: r.Text,
		Generator: out.Generator, Provider: out.Provider, Model: out.Model, Intents: r.Intents, Sources: r.Sources, At: a.cfg.Clock.Now()}
	// The pair is appended together, at the version read: a concurrent
	// question is a conflict, and the pair goes after it (questions
	// commute); every retry follows a pair that was kept, so it ends.
	for try := 0; ; try++ {
		_, err = a.cfg.Store.Append(ctx, stream, version, q, ans)
		if err == nil || kernel.KindOf(err) != kernel.KindConflict || try == maxAskTries-1 {
			break
		}
		if version, err = a.cfg.Store.Version(ctx, stream.ID); err != nil {
			break
		}
		if version+2 > int64(a.cfg.MaxTurns) {
			return Answered{}, fullThread(a.cfg.MaxTurns)
		}
	}
	if err != nil {
		return Answered{}, fmt.Errorf("keep ask turn on %s: %w", stream.ID, err)
	}
	return out, nil
}

// maxAskTries bounds the appends of one question's pair under contention.
const maxAskTries = 50

func fullThread(max int) error {
	return kernel.Invalid("chatId", fmt.Sprintf("max_turns:%d", max),
		fmt.Sprintf("this thread keeps at most %d turns; continue in a new thread (another chatId)", max))
}

// facts reads what is recorded about company companyID (404 when there is
// no such company).
func (a *Artifacts) facts(ctx context.Context, companyID string) (artifacts.Facts, error) {
	ch, err := a.cfg.Chats.Load(ctx, companyID)
	if err != nil {
		return artifacts.Facts{}, err
	}
	f := artifacts.Facts{Chat: ch, ArtifactsStream: builder.ArtifactsStream(companyID), DeploysStream: builder.DeploysStream(companyID)}
	if f.Artifacts, f.ArtifactsVersion, err = a.Recorded(ctx, companyID); err != nil {
		return artifacts.Facts{}, err
	}
	evs, err := a.cfg.Store.Load(ctx, f.DeploysStream, eventstore.LoadOptions{})
	if err != nil {
		return artifacts.Facts{}, fmt.Errorf("deploys of %s: %w", companyID, err)
	}
	for _, e := range evs {
		f.DeploysVersion = e.StreamVersion
		if d, ok := e.Event.(*builder.AppDeployed); ok {
			f.Deploys = append(f.Deploys, *d)
		}
	}
	return f, nil
}

// Thread returns the turns of Ask thread chatID of company companyID,
// oldest first (none for a thread never asked): 400 when either id is
// missing or malformed, 404 for an unknown company.
func (a *Artifacts) Thread(ctx context.Context, companyID, chatID string) ([]builder.AskTurn, error) {
	for _, id := range []struct{ field, v string }{{"companyId", companyID}, {"chatId", chatID}} {
		if id.v == "" {
			return nil, kernel.Invalid(id.field, "required", id.field+" is required (a chat id, chat_...)")
		}
		if err := CheckChatID(id.field, id.v); err != nil {
			return nil, err
		}
	}
	if _, err := a.cfg.Chats.Load(ctx, companyID); err != nil {
		return nil, err
	}
	evs, err := a.cfg.Store.Load(ctx, builder.AskStream(companyID, chatID), eventstore.LoadOptions{})
	if err != nil {
		return nil, fmt.Errorf("ask thread of %s: %w", companyID, err)
	}
	out := make([]builder.AskTurn, 0, len(evs))
	for _, e := range evs {
		if t, ok := e.Event.(*builder.AskTurn); ok {
			out = append(out, *t)
		}
	}
	return out, nil
}

package builder

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/strata-platform/strata/domain/builder"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
)

// maxAskThreads bounds the Ask threads one run reads.
const maxAskThreads = 100

// Limits of the secrets scan: files of these extensions, at most
// maxScanFiles files of at most maxScanBytes each.
const (
	maxScanFiles = 200
	maxScanBytes = 1 << 20
)

func scanned(p string) bool {
	return slices.Contains([]string{".js", ".mjs", ".cjs", ".ts", ".jsx", ".tsx"}, path.Ext(p))
}

// envRE finds process.env.NAME, process.env["NAME"] and process.env['NAME'].
var envRE = regexp.MustCompile(`process\.env(?:\.([A-Za-z_][A-Za-z0-9_]*)|\[\s*["']([A-Za-z_][A-Za-z0-9_]*)["']\s*\])`)

// builderSet are names the builder sets in every app's environment
// besides the runtime's reserved ones (commands/builder/deploys.go).
var builderSet = []string{"ALLOW_ORIGIN"}

// read is the read phase: every check reads, none writes. A check that
// fails is listed with a client-safe reason (its error is logged) and the
// others still run.
func (n *Nightly) read(ctx context.Context, companyID string) (builder.NightlyFound, []builder.CheckFailure) {
	var f builder.NightlyFound
	var failed []builder.CheckFailure
	ch, err := n.cfg.Chats.Load(ctx, companyID)
	checks := []struct {
		name string
		run  func() error
	}{
		{"systems", func() error { return n.readSystems(ctx, companyID, &f) }},
		{"artifacts", func() error { return n.readArtifacts(ctx, ch, &f) }},
		{"deploy", func() error { return n.readDeploy(ctx, ch, &f) }},
		{"secrets", func() error { return n.readSecrets(ctx, ch, &f) }},
		{"ask", func() error { return n.readAsk(ctx, companyID, &f) }},
	}
	for _, c := range checks {
		cerr := err
		if c.name == "systems" || cerr == nil {
			cerr = c.run()
		}
		if cerr != nil {
			failed = append(failed, builder.CheckFailure{Check: c.name, Error: n.reason(ctx, c.name, companyID, cerr)})
		}
	}
	if f.Systems == nil {
		f.Systems = []builder.SystemCount{}
	}
	return f, failed
}

// reason is a failure's client-safe text.
func (n *Nightly) reason(ctx context.Context, check, companyID string, err error) string {
	var ke *kernel.Error
	switch {
	case errors.As(err, &ke) && ke.Kind != kernel.KindInternal:
		return ke.Message
	case ctx.Err() != nil:
		return "the run's time budget (max_seconds) ran out before this check ended"
	}
	n.cfg.Logger.Error("builder: a nightly check failed", "check", check, "company", companyID, "error", err)
	return "this check could not read what it needs; the error is in the server's log"
}

func (n *Nightly) readSystems(ctx context.Context, companyID string, f *builder.NightlyFound) error {
	cards, err := n.cfg.Systems.Cards(ctx, companyID, "")
	if err != nil {
		return err
	}
	for _, c := range cards {
		f.Systems = append(f.Systems, builder.SystemCount{ID: c.ID, Kind: c.Kind, Counts: c.Counts, LastActivityAt: c.LastActivity})
	}
	return nil
}

// readArtifacts: the latest artifact of each view; stale when generated
// before the company's current version (its spec may have changed) or
// more than builder.StaleAfter ago.
func (n *Nightly) readArtifacts(ctx context.Context, ch *builder.Chat, f *builder.NightlyFound) error {
	f.Artifacts.Views = []builder.ArtifactSeen{}
	evs, err := n.cfg.Store.Load(ctx, builder.ArtifactsStream(ch.ID), eventstore.LoadOptions{Raw: true})
	if err != nil {
		return err
	}
	latest := map[string]time.Time{}
	for _, e := range evs {
		var a builder.ArtifactGenerated
		if e.Type != a.EventType() || json.Unmarshal(e.Payload, &a) != nil || a.View == "" {
			continue
		}
		if a.At.IsZero() {
			a.At = e.OccurredAt
		}
		if a.At.After(latest[a.View]) {
			latest[a.View] = a.At
		}
	}
	f.Artifacts.Recorded = len(latest) > 0
	cur, hasVersion := ch.CurrentVersion()
	now := n.cfg.Clock.Now()
	for view, at := range latest {
		seen := builder.ArtifactSeen{View: view, GeneratedAt: at.UTC()}
		switch {
		case hasVersion && at.Before(cur.At):
			seen.Stale, seen.Reason = true, fmt.Sprintf("generated before version %d (%s), the company's current version",
				cur.Number, cur.At.UTC().Format(time.RFC3339))
		case now.Sub(at) > builder.StaleAfter:
			seen.Stale, seen.Reason = true, fmt.Sprintf("generated %d days ago", int(now.Sub(at).Hours()/24))
		}
		if seen.Stale {
			f.Artifacts.Stale++
		}
		f.Artifacts.Views = append(f.Artifacts.Views, seen)
	}
	sort.Slice(f.Artifacts.Views, func(i, j int) bool { return f.Artifacts.Views[i].View < f.Artifacts.Views[j].View })
	if len(f.Artifacts.Views) > builder.MaxReportItems {
		f.Artifacts.Views, f.Artifacts.Truncated = f.Artifacts.Views[:builder.MaxReportItems], true
	}
	return nil
}

// readDeploy: the recorded deploys against the company's current version.
func (n *Nightly) readDeploy(ctx context.Context, ch *builder.Chat, f *builder.NightlyFound) error {
	d := &f.Deploy
	if v, ok := ch.CurrentVersion(); ok {
		d.HasVersion, d.CurrentVersionID = true, v.VersionID
	}
	evs, err := n.cfg.Store.Load(ctx, builder.DeploysStream(ch.ID), eventstore.LoadOptions{})
	if err != nil {
		return err
	}
	for _, e := range evs {
		ev, ok := e.Event.(*builder.AppDeployed)
		if !ok {
			continue
		}
		if ev.Switched {
			at := ev.At.UTC()
			d.Deployed, d.VersionID, d.DeployedAt, d.LastFailure = true, ev.VersionID, &at, nil
			continue
		}
		d.LastFailure = &builder.DeployFailure{VersionID: ev.VersionID, Reason: ev.Reason, At: ev.At.UTC()}
	}
	d.Current = d.Deployed && d.VersionID == d.CurrentVersionID
	return nil
}

// readSecrets: the names the current version's code reads from its
// environment, against the company's secret names; names the runtime
// reserves or the builder sets are provided, not missing.
func (n *Nightly) readSecrets(ctx context.Context, ch *builder.Chat, f *builder.NightlyFound) error {
	s := &f.Secrets
	s.Referenced, s.Missing = []string{}, []string{}
	names, err := n.secretNames(ctx, ch.ID)
	if err != nil {
		return err
	}
	s.Set = len(names)
	v, ok := ch.CurrentVersion()
	if !ok {
		return nil
	}
	refs := map[string]bool{}
	for _, file := range v.Files {
		if !scanned(file.Path) || file.Size > maxScanBytes {
			continue
		}
		if s.FilesScanned == maxScanFiles {
			s.Truncated = true
			break
		}
		b, err := n.cfg.Chats.File(ctx, ch.ID, file)
		if err != nil {
			return err
		}
		src, err := io.ReadAll(io.LimitReader(b, maxScanBytes))
		b.Close()
		if err != nil {
			return err
		}
		s.FilesScanned++
		for _, m := range envRE.FindAllSubmatch(src, -1) {
			refs[string(m[1])+string(m[2])] = true
		}
	}
	for name := range refs {
		s.Referenced = append(s.Referenced, name)
		if !slices.Contains(names, name) && !builder.ReservedSecretName(name) && !slices.Contains(builderSet, name) {
			s.Missing = append(s.Missing, name)
		}
	}
	slices.Sort(s.Referenced)
	slices.Sort(s.Missing)
	if len(s.Missing) > builder.MaxReportItems {
		s.Missing, s.Truncated = s.Missing[:builder.MaxReportItems], true
	}
	if len(s.Referenced) > builder.MaxReportItems {
		s.Referenced, s.Truncated = s.Referenced[:builder.MaxReportItems], true
	}
	return nil
}

// secretNames: the SecretNames hook, else the company's secrets folded
// from their events (names and versions only: the events hold no value).
func (n *Nightly) secretNames(ctx context.Context, companyID string) ([]string, error) {
	if n.cfg.SecretNames != nil {
		return n.cfg.SecretNames(ctx, companyID)
	}
	evs, err := n.cfg.Store.Load(ctx, builder.SecretsStreamID(companyID), eventstore.LoadOptions{Raw: true})
	if err != nil {
		return nil, err
	}
	st := &builder.Secrets{CompanyID: companyID}
	for _, e := range evs {
		var ev kernel.Event
		switch e.Type {
		case builder.SecretSet{}.EventType():
			ev = &builder.SecretSet{}
		case builder.SecretDeleted{}.EventType():
			ev = &builder.SecretDeleted{}
		default:
			continue
		}
		if err := json.Unmarshal(e.Payload, ev); err != nil {
			return nil, fmt.Errorf("secret event %s: %w", e.EventID, err)
		}
		st.Apply(ev, e.StreamVersion)
	}
	var names []string
	for _, sec := range st.List() {
		names = append(names, sec.Name)
	}
	return names, nil
}

// readAsk: the company's Ask threads (streams builder-ask:<company>:<chat>,
// found by prefix in es.streams: an index range scan under the C collation
// of the embedded cluster) and the questions left open: no answer
// recorded, or an answer that computed nothing (no intent, no source) and
// came from no model.
func (n *Nightly) readAsk(ctx context.Context, companyID string, f *builder.NightlyFound) error {
	a := &f.Ask
	a.Open = []builder.OpenQuestion{}
	prefix := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(builder.AskStream(companyID, ""))
	rows, err := n.cfg.Store.DB().QueryContext(ctx, `SELECT stream_id FROM es.streams WHERE stream_type = $1 AND stream_id LIKE $2
		ORDER BY stream_id LIMIT $3`, builder.StreamAsk, prefix+"%", maxAskThreads)
	if err != nil {
		return err
	}
	var streams []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return err
		}
		streams = append(streams, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, id := range streams {
		if err := n.readThread(ctx, id, a); err != nil {
			return err
		}
	}
	a.Threads = len(streams)
	a.Recorded = a.Questions > 0
	return nil
}

func (n *Nightly) readThread(ctx context.Context, streamID string, a *builder.AskFound) error {
	evs, err := n.cfg.Store.Load(ctx, streamID, eventstore.LoadOptions{Raw: true})
	if err != nil {
		return err
	}
	var pending *builder.AskTurn
	flush := func() {
		if pending != nil {
			if len(a.Open) < builder.MaxReportItems {
				a.Open = append(a.Open, builder.OpenQuestion{ChatID: pending.ChatID, Text: builder.Quote(pending.Text), At: pending.At.UTC()})
			} else {
				a.Truncated = true
			}
		}
		pending = nil
	}
	for _, e := range evs {
		var t builder.AskTurn
		if e.Type != t.EventType() || json.Unmarshal(e.Payload, &t) != nil {
			continue
		}
		switch t.Role {
		case builder.RoleUser:
			flush()
			a.Questions++
			pending = &t
		case builder.RoleAssistant:
			if pending != nil && (t.Model != "" || len(t.Intents) > 0 || len(t.Sources) > 0) {
				pending = nil // answered
			}
			flush()
		}
	}
	flush()
	return nil
}

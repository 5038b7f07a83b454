package artifacts

import (
	"fmt"
	"strings"
	"time"

	"github.com/strata-platform/strata/domain/builder"
)

// Facts is what the offline answerer may read about a company: its chat
// (the company's generations, files and versions), the artifacts recorded
// for it and its recorded deploys. Chat is nil when the question named no
// company.
type Facts struct {
	Chat             *builder.Chat
	Artifacts        []builder.ArtifactGenerated // oldest first
	ArtifactsStream  string
	ArtifactsVersion int64                 // the artifacts stream's version read (0: none recorded)
	Deploys          []builder.AppDeployed // oldest first
	DeploysStream    string
	DeploysVersion   int64
}

// Reply is an offline answer: its text, the intents it answered and the
// facts it used.
type Reply struct {
	Text    string
	Intents []string
	Sources []builder.AskSource
}

// Answer answers question from f: the sentences of every matched intent
// (Match), in order, each computed from the events; NoCompanyAnswer when
// an intent matched but no company was named; NoModelAnswer when nothing
// matched. It never writes anything else.
func Answer(question string, f Facts) Reply {
	intents := Match(question)
	if len(intents) == 0 {
		return Reply{Text: NoModelAnswer, Intents: []string{}, Sources: []builder.AskSource{}}
	}
	if f.Chat == nil {
		return Reply{Text: NoCompanyAnswer, Intents: intents,
			Sources: []builder.AskSource{{Fact: "company", Detail: "no companyId was given"}}}
	}
	r := Reply{Intents: intents, Sources: []builder.AskSource{}}
	var text []string
	for _, in := range intents {
		s, src := f.sentence(in)
		text = append(text, s)
		r.Sources = append(r.Sources, src)
	}
	r.Text = strings.Join(text, " ")
	return r
}

func (f Facts) chatSource(fact string, types ...string) builder.AskSource {
	return builder.AskSource{Fact: fact, Stream: f.Chat.ID, UpToVersion: f.Chat.Version, EventTypes: types}
}

const (
	evVersion   = "builder.version_created"
	evPlanned   = "builder.generation_planned"
	evStarted   = "builder.generation_started"
	evCompleted = "builder.generation_completed"
	evFailed    = "builder.generation_failed"
	evArtifact  = "builder.artifact_generated"
	evDeployed  = "builder.app_deployed"
)

// sentence is the answer of one intent and its source.
func (f Facts) sentence(intent string) (string, builder.AskSource) {
	ch := f.Chat
	switch intent {
	case IntentVersions:
		src := f.chatSource("versions", evVersion)
		if len(ch.Versions) == 0 {
			return "This company has no version yet.", src
		}
		cur, _ := ch.CurrentVersion()
		s := fmt.Sprintf("This company has %s; the current one is version %d (%s).", count(len(ch.Versions), "version"), cur.Number, cur.VersionID)
		restored := 0
		for _, v := range ch.Versions {
			if v.RestoredFrom != "" {
				restored++
			}
		}
		if restored > 0 {
			s += fmt.Sprintf(" %s restored from an older version.", count(restored, "of them was", "of them were"))
		}
		return s, src
	case IntentFiles:
		src := f.chatSource("files", evVersion)
		cur, ok := ch.CurrentVersion()
		if !ok {
			return "There are no files yet: this company has no version.", src
		}
		var size int64
		for _, fl := range cur.Files {
			size += fl.Size
		}
		return fmt.Sprintf("Version %d has %s, %s in all.", cur.Number, count(len(cur.Files), "file"), count(int(size), "byte")), src
	case IntentEntities:
		src := f.chatSource("entities", evPlanned, evVersion)
		b, ok, err := CompanyBasis(ch)
		if err != nil || !ok {
			return "No app spec is recorded for a current version of this company, so there are no entities to count.", src
		}
		parts, fields := make([]string, len(b.Spec.Entities)), 0
		for i, e := range b.Spec.Entities {
			parts[i] = fmt.Sprintf("%s (%s)", e.Label, count(len(e.Fields), "field"))
			fields += len(e.Fields)
		}
		return fmt.Sprintf("The app spec of version %d has %s: %s; %s in all.", b.VersionNumber,
			count(len(b.Spec.Entities), "entity", "entities"), andList(parts), count(fields, "field")), src
	case IntentGenerations:
		return f.generations(), f.chatSource("generations", evStarted, evCompleted, evFailed)
	case IntentArtifacts:
		return f.artifacts(), builder.AskSource{Fact: "artifacts", Stream: f.ArtifactsStream, UpToVersion: f.ArtifactsVersion,
			EventTypes: []string{evArtifact}}
	case IntentDeploy:
		return f.deploys(), builder.AskSource{Fact: "deploy", Stream: f.DeploysStream, UpToVersion: f.DeploysVersion,
			EventTypes: []string{evDeployed}}
	}
	return "", builder.AskSource{}
}

func (f Facts) generations() string {
	ch := f.Chat
	by := map[string]int{}
	for _, g := range ch.Generations {
		by[g.Status]++
	}
	s := fmt.Sprintf("There %s %s: %d completed, %d failed, %d running.", isWere(len(ch.Generations)), count(len(ch.Generations), "generation"),
		by[builder.StatusCompleted], by[builder.StatusFailed], by[builder.StatusRunning])
	g, ok := ch.Latest()
	if !ok {
		return s
	}
	switch g.Status {
	case builder.StatusCompleted:
		v, _ := ch.VersionByID(g.VersionID)
		s += fmt.Sprintf(" The latest (%s, generator %s) completed with version %d.", g.ID, g.Generator, v.Number)
	case builder.StatusFailed:
		s += fmt.Sprintf(" The latest (%s, generator %s) failed with %s: %s", g.ID, g.Generator, g.Code, strings.TrimSuffix(g.Reason, "."))
		s += "."
	default:
		s += fmt.Sprintf(" The latest (%s, generator %s) is still running.", g.ID, g.Generator)
	}
	return s
}

func (f Facts) artifacts() string {
	if len(f.Artifacts) == 0 {
		return "No artifact is recorded for this company yet."
	}
	by := map[string]int{}
	for _, a := range f.Artifacts {
		by[a.View]++
	}
	var parts []string
	for _, v := range Views() {
		if by[v] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", by[v], v))
		}
	}
	last := f.Artifacts[len(f.Artifacts)-1]
	return fmt.Sprintf("%s recorded for this company: %s. The latest is a %s of %s (generator %s, model %s).",
		count(len(f.Artifacts), "artifact is", "artifacts are"), andList(parts), last.View, last.At.UTC().Format(time.RFC3339),
		last.Generator, last.Model)
}

// deploys tells the recorded deploys: the last one that took the traffic,
// and a later attempt that did not. Records say what was deployed, not
// whether it still runs, and the sentence says so.
func (f Facts) deploys() string {
	if len(f.Deploys) == 0 {
		return "No deploy is recorded for this company, so its app has not been deployed (the preview's first request or a redeploy deploys it)."
	}
	number := func(versionID string) string {
		if v, ok := f.Chat.VersionByID(versionID); ok {
			return fmt.Sprintf("version %d (%s)", v.Number, versionID)
		}
		return versionID
	}
	s := count(len(f.Deploys), "deploy is", "deploys are") + " recorded for this company."
	var serving *builder.AppDeployed
	for i := range f.Deploys {
		if f.Deploys[i].Switched {
			serving = &f.Deploys[i]
		}
	}
	if serving != nil {
		s += fmt.Sprintf(" The last one that took the traffic deployed %s at %s (%s), after %s.", number(serving.VersionID),
			serving.At.UTC().Format(time.RFC3339), serving.Trigger, count(serving.Probes, "health probe"))
	} else {
		s += " None of them passed its health probes, so none took the traffic."
	}
	if last := f.Deploys[len(f.Deploys)-1]; !last.Switched {
		s += fmt.Sprintf(" The latest attempt, %s at %s (%s), did not switch: %s.", number(last.VersionID),
			last.At.UTC().Format(time.RFC3339), last.Trigger, strings.TrimSuffix(last.Reason, "."))
	}
	return s + " These are records of deploys: whether the app is up at this moment is not recorded."
}

// count writes n and the singular or plural form (plural: forms[0]+"s"
// unless given).
func count(n int, forms ...string) string {
	one, many := forms[0], forms[0]+"s"
	if len(forms) > 1 {
		many = forms[1]
	}
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

func isWere(n int) string {
	if n == 1 {
		return "was"
	}
	return "were"
}

package builder

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

// StreamArtifacts is the stream type of the planning artifacts
// (/api/build/artifact) recorded for one company, or for one idea when no
// company was named. Its stream ids come from ArtifactsStream and
// IdeaArtifactsStream.
const StreamArtifacts = "builder.artifacts"

// ArtifactsStream is the id of the artifacts stream of company companyID
// (a chat id: the chat that built the company).
func ArtifactsStream(companyID string) string { return "builder-artifacts:" + companyID }

// IdeaArtifactsStream is the id of the artifacts stream of an artifact
// request that named no company: keyed by the SHA-256 of the track, a
// newline and the idea, so the artifacts of one idea on one track share a
// stream (and the idea itself is not the stream's id).
func IdeaArtifactsStream(track, idea string) string {
	return "builder-artifacts:idea-" + IdeaKey(track, idea)
}

// IdeaKey is the hex SHA-256 of track, a newline and idea.
func IdeaKey(track, idea string) string {
	sum := sha256.Sum256([]byte(track + "\n" + idea))
	return hex.EncodeToString(sum[:])
}

// ArtifactGenerated: a planning artifact was produced and returned. Content
// is the artifact's JSON, valid against its view's schema (Schema names
// it); Generator, Provider and Model say what produced it; DerivedFrom says
// what it was derived from (for the template generator: the app spec, and
// whether the founder's feedback could be applied).
type ArtifactGenerated struct {
	ArtifactID  string          `json:"artifact_id"`
	CompanyID   string          `json:"company_id,omitempty"`
	View        string          `json:"view"`
	Track       string          `json:"track"`
	Idea        string          `json:"idea"`
	CompanyName string          `json:"company_name,omitempty"`
	Feedback    string          `json:"feedback,omitempty"`
	Content     json.RawMessage `json:"content"`
	Schema      string          `json:"schema"`
	Generator   string          `json:"generator"`
	Provider    string          `json:"provider"`
	Model       string          `json:"model"`
	DerivedFrom json.RawMessage `json:"derived_from"`
	At          time.Time       `json:"at"`
}

// EventType implements kernel.Event.
func (ArtifactGenerated) EventType() string { return "builder.artifact_generated" }

// ArtifactEvents returns a constructor for every event of the artifacts
// and the Ask thread (schema version 1): ArtifactGenerated and AskTurn.
func ArtifactEvents() []func() kernel.Event {
	return []func() kernel.Event{
		func() kernel.Event { return &ArtifactGenerated{} },
		func() kernel.Event { return &AskTurn{} },
	}
}

// Package hackathon projects the hackathon context's events into the tables
// of schema rm_hackathon_v1, which the hackathon read API serves for what
// spans hackathons or needs SQL: the hackathon list and full-text search,
// dashboards (my hackathons, my teams, my scores), analytics and the
// leaderboard. The leaderboard's numbers (per-judge statistics, each
// submission's raw and z-score means) are kept by the projector as scores
// arrive, computed by domain/hackathon/judging, so a leaderboard request
// reads one row per submission and a rebuild gives the same numbers bit for
// bit.
package hackathon

import (
	"context"
	stdsql "database/sql"
	"encoding/json"

	"github.com/strata-platform/strata/domain/hackathon"
	"github.com/strata-platform/strata/eventstore"
)

// Name is the projector's name; its tables live in schema rm_hackathon_v1.
const Name = "hackathon.v1"

// Schema is the schema of the projector's tables, for qualified queries.
const Schema = "rm_hackathon_v1"

// Projector maintains rm_hackathon_v1.
type Projector struct{}

// Name implements projections.Projector.
func (Projector) Name() string { return Name }

// PartitionedByStream implements projections.Partitioned: one hackathon's
// rows are its stream's alone.
func (Projector) PartitionedByStream() {}

// Handles implements projections.Projector: every hackathon event.
func (Projector) Handles() []string {
	var out []string
	for _, c := range hackathon.Events() {
		out = append(out, c().EventType())
	}
	return out
}

// Apply implements projections.Projector.
func (Projector) Apply(ctx context.Context, tx *stdsql.Tx, e eventstore.Envelope) error {
	id := e.StreamID
	switch ev := e.Event.(type) {
	case *hackathon.HackathonCreated:
		d := ev.Details
		_, err := tx.ExecContext(ctx, `INSERT INTO hackathons (hackathon_id, name, description, status, start_date, end_date,
			location, is_online, max_participants, created_by, organizers, created_at, updated_at)
			VALUES ($1, $2, $3, 'DRAFT', $4, $5, $6, $7, $8, $9, ARRAY[$9], $10, $10) ON CONFLICT (hackathon_id) DO NOTHING`,
			id, d.Name, d.Description, d.StartDate, d.EndDate, d.Location, d.IsOnline, d.MaxParticipants, ev.CreatedBy, ev.At)
		return err
	case *hackathon.HackathonUpdated:
		d := ev.Details
		_, err := tx.ExecContext(ctx, `UPDATE hackathons SET name = $2, description = $3, start_date = $4, end_date = $5,
			location = $6, is_online = $7, max_participants = $8, updated_at = $9 WHERE hackathon_id = $1`,
			id, d.Name, d.Description, d.StartDate, d.EndDate, d.Location, d.IsOnline, d.MaxParticipants, ev.At)
		return err
	case *hackathon.StatusChanged:
		return exec(ctx, tx, `UPDATE hackathons SET status = $2, updated_at = $3 WHERE hackathon_id = $1`, id, ev.To, ev.At)
	case *hackathon.OrganizerAdded:
		return exec(ctx, tx, `UPDATE hackathons SET organizers = array_append(array_remove(organizers, $2), $2) WHERE hackathon_id = $1`, id, ev.UserID)
	case *hackathon.OrganizerRemoved:
		return exec(ctx, tx, `UPDATE hackathons SET organizers = array_remove(organizers, $2) WHERE hackathon_id = $1`, id, ev.UserID)
	case *hackathon.TrackSaved:
		return exec(ctx, tx, `INSERT INTO tracks (hackathon_id, track_id, name) VALUES ($1, $2, $3)
			ON CONFLICT (track_id) DO UPDATE SET name = EXCLUDED.name`, id, ev.TrackID, ev.Track.Name)
	case *hackathon.TrackDeleted:
		return exec(ctx, tx, `DELETE FROM tracks WHERE track_id = $1`, ev.TrackID)
	case *hackathon.ParticipantJoined:
		return join(ctx, tx, id, ev)
	case *hackathon.TeamSaved:
		return exec(ctx, tx, `INSERT INTO teams (hackathon_id, team_id, name, description, created_at) VALUES ($1, $2, $3, $4, $5)
			ON CONFLICT (team_id) DO UPDATE SET name = EXCLUDED.name, description = EXCLUDED.description`,
			id, ev.TeamID, ev.Name, ev.Description, ev.At)
	case *hackathon.TeamDeleted:
		return exec(ctx, tx, `WITH m AS (DELETE FROM team_members WHERE team_id = $1) DELETE FROM teams WHERE team_id = $1`, ev.TeamID)
	case *hackathon.TeamMemberAdded:
		return exec(ctx, tx, `INSERT INTO team_members (hackathon_id, team_id, user_id, role, added_at) VALUES ($1, $2, $3, $4, $5)
			ON CONFLICT (team_id, user_id) DO UPDATE SET role = EXCLUDED.role`, id, ev.TeamID, ev.UserID, ev.Role, ev.At)
	case *hackathon.TeamMemberRemoved:
		return exec(ctx, tx, `DELETE FROM team_members WHERE team_id = $1 AND user_id = $2`, ev.TeamID, ev.UserID)
	default:
		return applyJudging(ctx, tx, id, e)
	}
}

func join(ctx context.Context, tx *stdsql.Tx, id string, ev *hackathon.ParticipantJoined) error {
	var builderBefore bool
	err := tx.QueryRowContext(ctx, `SELECT 'builder' = ANY(roles) FROM participants WHERE hackathon_id = $1 AND user_id = $2`,
		id, ev.UserID).Scan(&builderBefore)
	if err != nil && err != stdsql.ErrNoRows {
		return err
	}
	if err := exec(ctx, tx, `INSERT INTO participants (hackathon_id, user_id, roles, joined_at) VALUES ($1, $2, ARRAY[$3], $4)
		ON CONFLICT (hackathon_id, user_id) DO UPDATE SET roles = array_append(array_remove(participants.roles, $3), $3)`,
		id, ev.UserID, ev.Role, ev.At); err != nil {
		return err
	}
	if ev.Role == hackathon.RoleBuilder && !builderBefore {
		return exec(ctx, tx, `UPDATE hackathons SET builders = builders + 1 WHERE hackathon_id = $1`, id)
	}
	return nil
}

func applyJudging(ctx context.Context, tx *stdsql.Tx, id string, e eventstore.Envelope) error {
	switch e.Event.(type) {
	case *hackathon.SubmissionSaved, *hackathon.SubmissionDeleted, *hackathon.RubricSaved, *hackathon.RubricActivated,
		*hackathon.ScoreRecorded:
		if err := exec(ctx, tx, `UPDATE hackathons SET results_version = results_version + 1 WHERE hackathon_id = $1`, id); err != nil {
			return err
		}
	}
	switch ev := e.Event.(type) {
	case *hackathon.SubmissionSaved:
		s := ev.Submission
		if err := exec(ctx, tx, `INSERT INTO submissions (hackathon_id, submission_id, team_id, project_name, description, track_id,
			submitted_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $7)
			ON CONFLICT (submission_id) DO UPDATE SET project_name = EXCLUDED.project_name, description = EXCLUDED.description,
			track_id = EXCLUDED.track_id, updated_at = EXCLUDED.updated_at`,
			id, ev.SubmissionID, s.TeamID, s.ProjectName, s.Description, nullID(s.TrackID), ev.At); err != nil {
			return err
		}
		return exec(ctx, tx, `INSERT INTO results (hackathon_id, submission_id, track_id, submitted_at) VALUES ($1, $2, $3, $4)
			ON CONFLICT (submission_id) DO UPDATE SET track_id = EXCLUDED.track_id`, id, ev.SubmissionID, nullID(s.TrackID), ev.At)
	case *hackathon.SubmissionDeleted:
		return exec(ctx, tx, `WITH r AS (DELETE FROM results WHERE submission_id = $1) DELETE FROM submissions WHERE submission_id = $1`, ev.SubmissionID)
	case *hackathon.SubmissionFileAttached:
		return exec(ctx, tx, `UPDATE submissions SET files = files + 1 WHERE submission_id = $1`, ev.SubmissionID)
	case *hackathon.RubricSaved:
		return exec(ctx, tx, `WITH r AS (INSERT INTO rubrics (hackathon_id, rubric_id, top_criterion, ladder) VALUES ($1, $2, $3, $4::text[])
			ON CONFLICT (rubric_id) DO UPDATE SET top_criterion = EXCLUDED.top_criterion, ladder = EXCLUDED.ladder)
			UPDATE active_rubrics SET top_criterion = $3, ladder = $4::text[] WHERE rubric_id = $2`,
			id, ev.RubricID, ev.Rubric.TopCriterion(), ev.Rubric.TieBreak)
	case *hackathon.RubricActivated:
		return exec(ctx, tx, `INSERT INTO active_rubrics (hackathon_id, rubric_id, top_criterion, ladder)
			SELECT hackathon_id, rubric_id, top_criterion, ladder FROM rubrics WHERE rubric_id = $1
			ON CONFLICT (hackathon_id) DO UPDATE SET rubric_id = EXCLUDED.rubric_id, top_criterion = EXCLUDED.top_criterion,
			ladder = EXCLUDED.ladder`, ev.RubricID)
	case *hackathon.RubricDeleted:
		return exec(ctx, tx, `DELETE FROM rubrics WHERE rubric_id = $1`, ev.RubricID)
	case *hackathon.ScoreRecorded:
		return recordScore(ctx, tx, id, ev)
	}
	return nil // prizes, invitations, recusals: served from the command side's fold
}

func exec(ctx context.Context, tx *stdsql.Tx, q string, args ...any) error {
	_, err := tx.ExecContext(ctx, q, args...)
	return err
}

func nullID(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func scoresJSON(m map[string]string) string {
	b, _ := json.Marshal(m) // a map of strings always marshals
	return string(b)
}

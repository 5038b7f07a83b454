package hackathon

import (
	"context"
	stdsql "database/sql"
	"encoding/json"
	"slices"
	"time"

	"github.com/strata-platform/strata/domain/hackathon/judging"
)

// exportParticipant is a participant in the export; TeamID is their team
// as builder.
type exportParticipant struct {
	UserID   string    `json:"user_id"`
	Roles    []string  `json:"roles"`
	TeamID   *string   `json:"team_id"`
	JoinedAt time.Time `json:"joined_at"`
}

// exportTeam is a team in the export, members in user id order.
type exportTeam struct {
	ID           string       `json:"id"`
	Name         string       `json:"name"`
	Description  string       `json:"description"`
	Members      []memberView `json:"members"`
	SubmissionID *string      `json:"submission_id"`
	CreatedAt    time.Time    `json:"created_at"`
}

// exportSubmission is a submission in the export; Files counts its files.
type exportSubmission struct {
	ID          string    `json:"id"`
	TeamID      string    `json:"team_id"`
	ProjectName string    `json:"project_name"`
	Description string    `json:"description"`
	TrackID     *string   `json:"track_id"`
	Files       int       `json:"files"`
	SubmittedAt time.Time `json:"submitted_at"`
	UpdatedAt   time.Time `json:"updated_at"`
}

// exportView is a hackathon's export: every list sorted by id (scores by
// submission then judge, the leaderboard by rank).
type exportView struct {
	HackathonID  string              `json:"hackathon_id"`
	Participants []exportParticipant `json:"participants"`
	Teams        []exportTeam        `json:"teams"`
	Submissions  []exportSubmission  `json:"submissions"`
	Scores       []scoreView         `json:"scores"`
	Leaderboard  []entryView         `json:"leaderboard"`
}

// allEntries is the leaderboard page size that takes every entry.
const allEntries = 1 << 30

// readExport reads hackathon id's export from the read model.
func readExport(ctx context.Context, db *stdsql.DB, id string) (exportView, error) {
	v := exportView{HackathonID: id, Participants: []exportParticipant{}, Teams: []exportTeam{}, Submissions: []exportSubmission{},
		Scores: []scoreView{}}
	err := each(ctx, db, `SELECT p.user_id, array_to_json(p.roles)::text, tm.team_id::text, p.joined_at
		FROM rm_hackathon_v1.participants p LEFT JOIN rm_hackathon_v1.team_members tm
			ON tm.hackathon_id = p.hackathon_id AND tm.user_id = p.user_id AND tm.role = 'builder'
		WHERE p.hackathon_id = $1 ORDER BY p.user_id COLLATE "C"`, id, func(rows *stdsql.Rows) error {
		var x exportParticipant
		var roles string
		var team stdsql.NullString
		if err := rows.Scan(&x.UserID, &roles, &team, &x.JoinedAt); err != nil {
			return err
		}
		if err := json.Unmarshal([]byte(roles), &x.Roles); err != nil {
			return err
		}
		slices.Sort(x.Roles)
		x.TeamID, x.JoinedAt = nullable(team), x.JoinedAt.UTC()
		v.Participants = append(v.Participants, x)
		return nil
	})
	if err == nil {
		err = each(ctx, db, `SELECT t.team_id::text, t.name, t.description, t.created_at,
			(SELECT coalesce(json_agg(json_build_object('user_id', m.user_id, 'role', m.role) ORDER BY m.user_id COLLATE "C"), '[]')::text
				FROM rm_hackathon_v1.team_members m WHERE m.team_id = t.team_id),
			(SELECT s.submission_id::text FROM rm_hackathon_v1.submissions s WHERE s.team_id = t.team_id ORDER BY s.submission_id LIMIT 1)
			FROM rm_hackathon_v1.teams t WHERE t.hackathon_id = $1 ORDER BY t.team_id`, id, func(rows *stdsql.Rows) error {
			var x exportTeam
			var members string
			var sub stdsql.NullString
			if err := rows.Scan(&x.ID, &x.Name, &x.Description, &x.CreatedAt, &members, &sub); err != nil {
				return err
			}
			x.Members = []memberView{}
			if err := json.Unmarshal([]byte(members), &x.Members); err != nil {
				return err
			}
			x.SubmissionID, x.CreatedAt = nullable(sub), x.CreatedAt.UTC()
			v.Teams = append(v.Teams, x)
			return nil
		})
	}
	if err == nil {
		err = each(ctx, db, `SELECT submission_id::text, team_id::text, project_name, description, track_id::text, files,
			submitted_at, updated_at FROM rm_hackathon_v1.submissions WHERE hackathon_id = $1 ORDER BY submission_id`, id,
			func(rows *stdsql.Rows) error {
				var x exportSubmission
				var track stdsql.NullString
				if err := rows.Scan(&x.ID, &x.TeamID, &x.ProjectName, &x.Description, &track, &x.Files, &x.SubmittedAt, &x.UpdatedAt); err != nil {
					return err
				}
				x.TrackID, x.SubmittedAt, x.UpdatedAt = nullable(track), x.SubmittedAt.UTC(), x.UpdatedAt.UTC()
				v.Submissions = append(v.Submissions, x)
				return nil
			})
	}
	if err == nil {
		err = each(ctx, db, `SELECT submission_id::text, judge_id, rubric_id::text, total::text, scores::text, feedback, revision,
			scored_by, scored_at FROM rm_hackathon_v1.scores WHERE hackathon_id = $1 ORDER BY submission_id, judge_id COLLATE "C"`, id,
			func(rows *stdsql.Rows) error {
				var x scoreView
				var total, scores string
				if err := rows.Scan(&x.SubmissionID, &x.JudgeID, &x.RubricID, &total, &scores, &x.Feedback, &x.Revision,
					&x.ScoredBy, &x.ScoredAt); err != nil {
					return err
				}
				var m map[string]string
				if err := json.Unmarshal([]byte(scores), &m); err != nil {
					return err
				}
				x.Scores, x.TotalScore, x.ScoredAt = map[string]json.Number{}, json.Number(total), x.ScoredAt.UTC()
				for k, s := range m {
					x.Scores[k] = json.Number(s)
				}
				v.Scores = append(v.Scores, x)
				return nil
			})
	}
	if err != nil {
		return v, err
	}
	lb, err := Leaderboard(ctx, db, id, judging.MethodZScore, "", allEntries, 0)
	v.Leaderboard = lb.Entries
	return v, err
}

// each runs q with the hackathon id and calls row for every row.
func each(ctx context.Context, db *stdsql.DB, q, id string, row func(*stdsql.Rows) error) error {
	rows, err := db.QueryContext(ctx, q, id)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := row(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

func nullable(s stdsql.NullString) *string {
	if !s.Valid {
		return nil
	}
	return &s.String
}

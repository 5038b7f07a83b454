package hackathon

import (
	stdsql "database/sql"
	"encoding/json"
	"net/http"
	"slices"
	"time"

	"github.com/strata-platform/strata/domain/hackathon"
	"github.com/strata-platform/strata/domain/hackathon/judging"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/readapi/httpx"
)

// roleCounts counts participants by role (one user may hold several).
type roleCounts struct {
	Builder int `json:"builder"`
	Judge   int `json:"judge"`
	Mentor  int `json:"mentor"`
}

// hackathonRef is a hackathon as a dashboard names it.
type hackathonRef struct {
	ID        string    `json:"id"`
	Name      string    `json:"name"`
	Status    string    `json:"status"`
	StartDate time.Time `json:"start_date"`
	EndDate   time.Time `json:"end_date"`
}

// organizerItem is one hackathon the caller organises, with its counts.
type organizerItem struct {
	Hackathon     hackathonRef `json:"hackathon"`
	Participants  roleCounts   `json:"participants"`
	Teams         int          `json:"teams"`
	Submissions   int          `json:"submissions"`
	Scores        int          `json:"scores"`
	Judges        int          `json:"judges"`
	JudgesScoring int          `json:"judges_scoring"`
}

// organizerDashboard is GET /api/v1/dashboard/organizer: the hackathons the
// caller organises, newest first, with their counts (read model).
func (a *API) organizerDashboard(w http.ResponseWriter, r *http.Request, c caller) {
	limit, offset, err := page(r)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	out := listOf[organizerItem]{Items: []organizerItem{}, Limit: limit, Offset: offset}
	rows, err := a.db.QueryContext(r.Context(), `SELECT c.total, h.hackathon_id::text, h.name, h.status, h.start_date, h.end_date,
			p.builders, p.judges, p.mentors,
			(SELECT count(*) FROM rm_hackathon_v1.teams t WHERE t.hackathon_id = h.hackathon_id),
			(SELECT count(*) FROM rm_hackathon_v1.submissions s WHERE s.hackathon_id = h.hackathon_id),
			sc.n, sc.judges
		FROM (SELECT count(*) AS total FROM rm_hackathon_v1.hackathons WHERE organizers @> ARRAY[$1]::text[]) c
		LEFT JOIN LATERAL (SELECT * FROM rm_hackathon_v1.hackathons WHERE organizers @> ARRAY[$1]::text[]
			ORDER BY created_at DESC, hackathon_id DESC LIMIT $2 OFFSET $3) h ON true
		LEFT JOIN LATERAL (SELECT count(*) FILTER (WHERE 'builder' = ANY(roles)) AS builders,
			count(*) FILTER (WHERE 'judge' = ANY(roles)) AS judges, count(*) FILTER (WHERE 'mentor' = ANY(roles)) AS mentors
			FROM rm_hackathon_v1.participants WHERE hackathon_id = h.hackathon_id) p ON true
		LEFT JOIN LATERAL (SELECT count(*) AS n, count(DISTINCT judge_id) AS judges
			FROM rm_hackathon_v1.scores WHERE hackathon_id = h.hackathon_id) sc ON true
		ORDER BY h.created_at DESC, h.hackathon_id DESC`, c.UserID, limit, offset)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	defer rows.Close()
	for rows.Next() {
		var id, name, status stdsql.NullString
		var start, end stdsql.NullTime
		var it organizerItem
		var counts [7]stdsql.NullInt64
		if err := rows.Scan(&out.Total, &id, &name, &status, &start, &end, &counts[0], &counts[1], &counts[2], &counts[3],
			&counts[4], &counts[5], &counts[6]); err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		if !id.Valid {
			continue // the one row of an empty page
		}
		it.Hackathon = hackathonRef{ID: id.String, Name: name.String, Status: status.String, StartDate: start.Time.UTC(), EndDate: end.Time.UTC()}
		n := func(i int) int { return int(counts[i].Int64) }
		it.Participants = roleCounts{Builder: n(0), Judge: n(1), Mentor: n(2)}
		it.Teams, it.Submissions, it.Scores, it.JudgesScoring, it.Judges = n(3), n(4), n(5), n(6), n(1)
		out.Items = append(out.Items, it)
	}
	writeJSON(w, r, http.StatusOK, out, rows.Err())
}

// dashTeam is the caller's team on the builder dashboard.
type dashTeam struct {
	ID      string       `json:"id"`
	Name    string       `json:"name"`
	Members []memberView `json:"members"`
}

// dashSubmission is the caller's team's submission.
type dashSubmission struct {
	ID          string  `json:"id"`
	ProjectName string  `json:"project_name"`
	TrackID     *string `json:"track_id"`
}

// builderItem is one hackathon the caller joined as builder.
type builderItem struct {
	Hackathon  hackathonRef    `json:"hackathon"`
	JoinedAt   time.Time       `json:"joined_at"`
	Team       *dashTeam       `json:"team"`
	Submission *dashSubmission `json:"submission"`
}

// builderDashboard is GET /api/v1/dashboard/builder: the hackathons the
// caller joined as builder (latest start first), their team and its
// submission in each (read model).
func (a *API) builderDashboard(w http.ResponseWriter, r *http.Request, c caller) {
	limit, offset, err := page(r)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	out := listOf[builderItem]{Items: []builderItem{}, Limit: limit, Offset: offset}
	const mine = `FROM rm_hackathon_v1.participants p JOIN rm_hackathon_v1.hackathons h ON h.hackathon_id = p.hackathon_id
		WHERE p.user_id = $1 AND 'builder' = ANY(p.roles) AND (h.status <> 'DRAFT' OR $1 = ANY(h.organizers))`
	rows, err := a.db.QueryContext(r.Context(), `SELECT c.total, x.hackathon_id::text, x.name, x.status, x.start_date, x.end_date,
			x.joined_at, t.team_id::text, t.name,
			(SELECT coalesce(json_agg(json_build_object('user_id', m.user_id, 'role', m.role) ORDER BY m.user_id COLLATE "C"), '[]')::text
				FROM rm_hackathon_v1.team_members m WHERE m.team_id = t.team_id),
			s.submission_id::text, s.project_name, s.track_id::text
		FROM (SELECT count(*) AS total `+mine+`) c
		LEFT JOIN LATERAL (SELECT h.*, p.joined_at `+mine+` ORDER BY h.start_date DESC, h.hackathon_id DESC LIMIT $2 OFFSET $3) x ON true
		LEFT JOIN rm_hackathon_v1.team_members tm ON tm.hackathon_id = x.hackathon_id AND tm.user_id = $1 AND tm.role = 'builder'
		LEFT JOIN rm_hackathon_v1.teams t ON t.team_id = tm.team_id
		LEFT JOIN LATERAL (SELECT * FROM rm_hackathon_v1.submissions WHERE team_id = t.team_id
			ORDER BY submitted_at, submission_id LIMIT 1) s ON true
		ORDER BY x.start_date DESC, x.hackathon_id DESC`, c.UserID, limit, offset)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	defer rows.Close()
	for rows.Next() {
		var id, name, status, teamID, teamName, members, subID, project, track stdsql.NullString
		var start, end, joined stdsql.NullTime
		if err := rows.Scan(&out.Total, &id, &name, &status, &start, &end, &joined, &teamID, &teamName, &members,
			&subID, &project, &track); err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		if !id.Valid {
			continue
		}
		it := builderItem{Hackathon: hackathonRef{ID: id.String, Name: name.String, Status: status.String,
			StartDate: start.Time.UTC(), EndDate: end.Time.UTC()}, JoinedAt: joined.Time.UTC()}
		if teamID.Valid {
			it.Team = &dashTeam{ID: teamID.String, Name: teamName.String, Members: []memberView{}}
			if err := json.Unmarshal([]byte(members.String), &it.Team.Members); err != nil {
				httpx.WriteError(w, r, err)
				return
			}
		}
		if subID.Valid {
			it.Submission = &dashSubmission{ID: subID.String, ProjectName: project.String}
			if track.Valid {
				it.Submission.TrackID = &track.String
			}
		}
		out.Items = append(out.Items, it)
	}
	writeJSON(w, r, http.StatusOK, out, rows.Err())
}

// judgeProgress is a judge's progress on their assignments.
type judgeProgress struct {
	Assigned int `json:"assigned"`
	Scored   int `json:"scored"`
}

// judgeItem is one hackathon the caller judges: their assignments (k
// judges per submission, computed as GET .../judging/assignments does),
// their progress, the scores they recorded in all and the assigned
// submissions they have yet to score.
type judgeItem struct {
	Hackathon hackathonRef  `json:"hackathon"`
	K         int           `json:"k"`
	Progress  judgeProgress `json:"progress"`
	Scores    int           `json:"scores"`
	Pending   []string      `json:"pending"`
}

// judgeDashboard is GET /api/v1/dashboard/judge: the hackathons the caller
// judges (latest start first, from the read model), each with the caller's
// assignments and progress computed on the hackathon's fold.
func (a *API) judgeDashboard(w http.ResponseWriter, r *http.Request, c caller) {
	limit, offset, err := page(r)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	out := listOf[judgeItem]{Items: []judgeItem{}, Limit: limit, Offset: offset}
	const mine = `FROM rm_hackathon_v1.participants p JOIN rm_hackathon_v1.hackathons h ON h.hackathon_id = p.hackathon_id
		WHERE p.user_id = $1 AND 'judge' = ANY(p.roles) AND (h.status <> 'DRAFT' OR $1 = ANY(h.organizers))`
	rows, err := a.db.QueryContext(r.Context(), `SELECT c.total, x.hackathon_id::text
		FROM (SELECT count(*) AS total `+mine+`) c
		LEFT JOIN LATERAL (SELECT h.hackathon_id, h.start_date `+mine+` ORDER BY h.start_date DESC, h.hackathon_id DESC
			LIMIT $2 OFFSET $3) x ON true
		ORDER BY x.start_date DESC, x.hackathon_id DESC`, c.UserID, limit, offset)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	var ids []string
	for rows.Next() {
		var id stdsql.NullString
		if err := rows.Scan(&out.Total, &id); err != nil {
			rows.Close()
			httpx.WriteError(w, r, err)
			return
		}
		if id.Valid {
			ids = append(ids, id.String)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	for _, id := range ids {
		var it judgeItem
		err := a.svc.View(r.Context(), id, c.UserID, func(h *hackathon.Hackathon) error {
			it = judgeItemOf(h, c.UserID, judging.DefaultK)
			return nil
		})
		if kernel.KindOf(err) == kernel.KindNotFound {
			continue // hidden since the read model's answer
		}
		if err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		out.Items = append(out.Items, it)
	}
	writeJSON(w, r, http.StatusOK, out, nil)
}

// judgeItemOf computes judge's assignments in h with panels of k.
func judgeItemOf(h *hackathon.Hackathon, judge string, k int) judgeItem {
	d := h.Details
	it := judgeItem{Hackathon: hackathonRef{ID: h.ID, Name: d.Name, Status: h.Status, StartDate: d.StartDate, EndDate: d.EndDate},
		K: k, Pending: []string{}}
	for _, x := range judging.Assign(assignInput(h, k)) {
		if !contains(x.JudgeIDs, judge) {
			continue
		}
		it.Progress.Assigned++
		if _, ok := h.Scores[hackathon.ScoreKey{SubmissionID: x.SubmissionID, JudgeID: judge}]; ok {
			it.Progress.Scored++
		} else {
			it.Pending = append(it.Pending, x.SubmissionID)
		}
	}
	slices.Sort(it.Pending)
	for key := range h.Scores {
		if key.JudgeID == judge && h.Submissions[key.SubmissionID] != nil {
			it.Scores++
		}
	}
	return it
}

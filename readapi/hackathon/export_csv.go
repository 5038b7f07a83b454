package hackathon

import (
	"encoding/csv"
	"encoding/json"
	"io"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Sections of the CSV export, in order; each starts with a header row
// whose first cell is "section".
var csvSections = []string{"participants", "teams", "submissions", "scores", "leaderboard"}

// plainNumber is a cell the export writes as a number (a leading minus is
// a sign there, not a formula).
var plainNumber = regexp.MustCompile(`^-?[0-9]+(\.[0-9]+)?$`)

// safeCell guards a CSV cell against spreadsheet formula injection (OWASP,
// CSV Injection): a cell that starts with =, +, -, @, a tab or a carriage
// return gets a leading apostrophe, so a spreadsheet shows it as text
// instead of evaluating it. A plain decimal number ("-1.5") is left as
// is: it is a value, not a formula.
func safeCell(s string) string {
	if s == "" || plainNumber.MatchString(s) {
		return s
	}
	switch s[0] {
	case '=', '+', '-', '@', '\t', '\r':
		return "'" + s
	}
	return s
}

// csvWidth is the number of fields of every line of the CSV export: the
// section column and the widest section's (the leaderboard's) eleven.
const csvWidth = 12

// writeCSV writes the export as one CSV document (RFC 4180: quoted fields
// where needed, CRLF line ends, the same number of fields on every line):
// for each section a header row, then its rows, every row led by the
// section's name and padded with empty fields to csvWidth.
func writeCSV(out io.Writer, v exportView) error {
	w := csv.NewWriter(out)
	w.UseCRLF = true
	line := func(first string, cells []string) {
		rec := make([]string, csvWidth)
		rec[0] = first
		copy(rec[1:], cells)
		_ = w.Write(rec)
	}
	rows := func(section string, header []string, n int, row func(i int) []string) {
		line("section", header)
		for i := range n {
			cells := row(i)
			for j, c := range cells {
				cells[j] = safeCell(c)
			}
			line(section, cells)
		}
	}
	p := v.Participants
	rows(csvSections[0], []string{"user_id", "roles", "team_id", "joined_at"}, len(p), func(i int) []string {
		return []string{p[i].UserID, strings.Join(p[i].Roles, ";"), deref(p[i].TeamID), csvTime(p[i].JoinedAt)}
	})
	t := v.Teams
	rows(csvSections[1], []string{"team_id", "name", "description", "members", "submission_id", "created_at"}, len(t), func(i int) []string {
		var members []string
		for _, m := range t[i].Members {
			members = append(members, m.UserID+":"+m.Role)
		}
		return []string{t[i].ID, t[i].Name, t[i].Description, strings.Join(members, ";"), deref(t[i].SubmissionID), csvTime(t[i].CreatedAt)}
	})
	s := v.Submissions
	rows(csvSections[2], []string{"submission_id", "team_id", "project_name", "description", "track_id", "files", "submitted_at",
		"updated_at"}, len(s), func(i int) []string {
		return []string{s[i].ID, s[i].TeamID, s[i].ProjectName, s[i].Description, deref(s[i].TrackID), strconv.Itoa(s[i].Files),
			csvTime(s[i].SubmittedAt), csvTime(s[i].UpdatedAt)}
	})
	sc := v.Scores
	rows(csvSections[3], []string{"submission_id", "judge_id", "rubric_id", "total_score", "scores", "feedback", "revision", "scored_by",
		"scored_at"}, len(sc), func(i int) []string {
		scores, _ := json.Marshal(sc[i].Scores) // numbers by key: always marshals
		return []string{sc[i].SubmissionID, sc[i].JudgeID, sc[i].RubricID, sc[i].TotalScore.String(), string(scores), sc[i].Feedback,
			strconv.Itoa(sc[i].Revision), sc[i].ScoredBy, csvTime(sc[i].ScoredAt)}
	})
	l := v.Leaderboard
	rows(csvSections[4], []string{"rank", "submission_id", "project_name", "team_id", "track_id", "normalized_score", "raw_mean",
		"top_criterion_mean", "score_count", "submitted_at", "separated_by"}, len(l), func(i int) []string {
		top := ""
		if l[i].TopCriterion != nil {
			top = csvFloat(*l[i].TopCriterion)
		}
		return []string{strconv.Itoa(l[i].Rank), l[i].SubmissionID, l[i].ProjectName, l[i].TeamID, deref(l[i].TrackID),
			csvFloat(l[i].Normalised), csvFloat(l[i].RawMean), top, strconv.Itoa(l[i].ScoreCount), csvTime(l[i].SubmittedAt),
			deref(l[i].SeparatedBy)}
	})
	w.Flush()
	return w.Error()
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func csvTime(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

func csvFloat(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

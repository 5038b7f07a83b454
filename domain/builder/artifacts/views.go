package artifacts

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/strata-platform/strata/domain/kernel"
)

// The views of /api/build/artifact.
const (
	ViewThesis      = "thesis"
	ViewWedge       = "wedge"
	ViewPRD         = "prd"
	ViewDataModel   = "dataModel"
	ViewICP         = "icp"
	ViewPricing     = "pricing"
	ViewGTM         = "gtm"
	ViewCompetitors = "competitors"
	ViewRoadmap     = "roadmap"
)

// Views returns every view, in a fixed order (the seed's).
func Views() []string {
	return []string{ViewThesis, ViewWedge, ViewPRD, ViewDataModel, ViewICP, ViewPricing, ViewGTM, ViewCompetitors, ViewRoadmap}
}

// OfflineViews returns the views that can be derived from an app spec
// alone, without judgement: the data model and the PRD skeleton.
func OfflineViews() []string { return []string{ViewDataModel, ViewPRD} }

// Derivable reports whether view can be derived offline (OfflineViews).
func Derivable(view string) bool { return slices.Contains(OfflineViews(), view) }

// Tracks: what the founder is building.
const (
	TrackApp     = "app"
	TrackCompany = "company"
)

// Limits of the artifact and Ask requests, in characters (runes).
const (
	MaxIdea        = 4000
	MaxQuestion    = 2000
	MaxFeedback    = 4000
	MaxCompanyName = 200
)

// Request is an artifact request as the founder sent it.
type Request struct {
	View        string
	Idea        string
	Track       string
	CompanyName string
	Feedback    string
}

// Check validates r, reporting the first broken rule as a kernel invalid
// error naming the field: view (required, one of Views, listed in the
// message), idea (required, at most MaxIdea), track (required, app or
// company), companyName (at most MaxCompanyName), feedback (at most
// MaxFeedback).
func (r Request) Check() error {
	switch {
	case r.View == "":
		return kernel.Invalid("view", "required", "view is required: one of "+strings.Join(Views(), ", "))
	case !slices.Contains(Views(), r.View):
		return kernel.Invalid("view", "enum:"+strings.Join(Views(), "|"),
			fmt.Sprintf("view %q is not a view; the views are %s", r.View, strings.Join(Views(), ", ")))
	}
	if err := CheckIdea(r.Idea); err != nil {
		return err
	}
	if r.Track == "" {
		return kernel.Invalid("track", "required", "track is required: app or company")
	}
	if err := CheckTrack(r.Track); err != nil {
		return err
	}
	if err := checkLength("companyName", r.CompanyName, MaxCompanyName); err != nil {
		return err
	}
	return checkLength("feedback", r.Feedback, MaxFeedback)
}

// CheckIdea validates an idea: required (not blank), at most MaxIdea.
func CheckIdea(idea string) error {
	if strings.TrimSpace(idea) == "" {
		return kernel.Invalid("idea", "required", "idea is required: the founder's idea in plain words")
	}
	return checkLength("idea", idea, MaxIdea)
}

// CheckTrack validates a non-empty track: app or company.
func CheckTrack(track string) error {
	if track != TrackApp && track != TrackCompany {
		return kernel.Invalid("track", "enum:app|company", fmt.Sprintf("track %q is neither app nor company", track))
	}
	return nil
}

func checkLength(field, s string, max int) error {
	if n := utf8.RuneCountInString(s); n > max {
		return kernel.Invalid(field, fmt.Sprintf("max_length:%d", max), fmt.Sprintf("%s has %d characters; at most %d", field, n, max))
	}
	return nil
}

// Question is an Ask request as the founder sent it (ids checked by the
// command, which knows their format).
type Question struct {
	Question    string
	Idea        string
	Track       string
	CompanyName string
}

// Check validates q: question (required, at most MaxQuestion), idea
// (required, at most MaxIdea), track (empty, app or company), companyName
// (at most MaxCompanyName).
func (q Question) Check() error {
	if strings.TrimSpace(q.Question) == "" {
		return kernel.Invalid("question", "required", "question is required")
	}
	if err := checkLength("question", q.Question, MaxQuestion); err != nil {
		return err
	}
	if err := CheckIdea(q.Idea); err != nil {
		return err
	}
	if q.Track != "" {
		if err := CheckTrack(q.Track); err != nil {
			return err
		}
	}
	return checkLength("companyName", q.CompanyName, MaxCompanyName)
}

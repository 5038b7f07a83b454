package hackathon

import (
	"errors"
	"io"
	"mime"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/strata-platform/strata/domain/hackathon"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/readapi/httpx"
)

// submissionView is a submission as the API shows it.
type submissionView struct {
	ID          string           `json:"id"`
	HackathonID string           `json:"hackathon_id"`
	TeamID      string           `json:"team_id"`
	ProjectName string           `json:"project_name"`
	Description string           `json:"description"`
	TrackID     *string          `json:"track_id"`
	Files       []hackathon.File `json:"files"`
	SubmittedBy string           `json:"submitted_by"`
	SubmittedAt time.Time        `json:"submitted_at"`
}

func submissionOf(h *hackathon.Hackathon, id string) (submissionView, bool) {
	s := h.Submissions[id]
	if s == nil {
		return submissionView{}, false
	}
	v := submissionView{ID: id, HackathonID: h.ID, TeamID: s.TeamID, ProjectName: s.ProjectName, Description: s.Description,
		Files: append([]hackathon.File{}, s.Files...), SubmittedBy: s.By, SubmittedAt: s.SubmittedAt}
	if s.TrackID != "" {
		t := s.TrackID
		v.TrackID = &t
	}
	return v, true
}

func (a *API) submissions() resourceDef[submissionView] {
	now := a.svc.Now
	return resourceDef[submissionView]{fields: []string{"team_id", "project_name", "description", "track_id"}, param: "submission_id",
		notFnd: hackathon.SubmissionNotFound,
		create: func(h *hackathon.Hackathon, by, id string, p hackathon.TextPatch) ([]kernel.Event, error) {
			return h.CreateSubmission(by, id, hackathon.Submission{TeamID: p["team_id"], ProjectName: p["project_name"],
				Description: p["description"], TrackID: p["track_id"]}, now())
		},
		patch: func(h *hackathon.Hackathon, by, id string, p hackathon.TextPatch) ([]kernel.Event, error) {
			return h.UpdateSubmission(by, id, p, now())
		},
		del: func(h *hackathon.Hackathon, by, id string) ([]kernel.Event, error) {
			return h.DeleteSubmission(by, id, now())
		},
		view: submissionOf,
		ids:  func(h *hackathon.Hackathon) []string { return sortedKeys(h.Submissions) },
	}
}

// listSubmissions lists submissions, optionally of one track or team.
func (a *API) listSubmissions(w http.ResponseWriter, r *http.Request, c caller) {
	limit, offset, err := page(r)
	track, team := r.URL.Query().Get("track_id"), r.URL.Query().Get("team_id")
	var all []submissionView
	if err == nil {
		err = a.view(r, c, func(h *hackathon.Hackathon) error {
			for _, id := range sortedKeys(h.Submissions) {
				v, _ := submissionOf(h, id)
				if (track == "" || (v.TrackID != nil && *v.TrackID == track)) && (team == "" || v.TeamID == team) {
					all = append(all, v)
				}
			}
			return nil
		})
	}
	writeJSON(w, r, http.StatusOK, pageOf(all, limit, offset), err)
}

// MaxUploadBytes is the body limit of the file upload route: the file's
// limit and room for the multipart framing.
func MaxUploadBytes(fileLimit int64) int64 { return fileLimit + 64<<10 }

// uploadFile stores one file (multipart field "file") on a submission.
func (a *API) uploadFile(w http.ResponseWriter, r *http.Request, c caller) {
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/form-data" {
		httpx.WriteError(w, r, &kernel.Error{Kind: kernel.KindUnsupportedMediaType, Field: "body", Rule: "multipart",
			Message: "send the file as multipart/form-data with a part named file"})
		return
	}
	mr, err := r.MultipartReader()
	if err != nil {
		httpx.WriteError(w, r, kernel.Invalid("body", "multipart", "the multipart body could not be read"))
		return
	}
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			httpx.WriteError(w, r, kernel.Invalid("file", "required", "file is required: a multipart part named file"))
			return
		}
		if err != nil {
			var mbe *http.MaxBytesError
			if errors.As(err, &mbe) {
				httpx.WriteError(w, r, &kernel.Error{Kind: kernel.KindTooLarge, Field: "file", Rule: "max_size", Message: "the upload is too large"})
				return
			}
			httpx.WriteError(w, r, kernel.Invalid("body", "multipart", "the multipart body could not be read"))
			return
		}
		if part.FormName() != "file" {
			continue
		}
		f, err := a.svc.AttachFile(r.Context(), hid(r), muxVar(r, "submission_id"), c.UserID, part.FileName(), part)
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			err = &kernel.Error{Kind: kernel.KindTooLarge, Field: "file", Rule: "max_size", Message: "the upload is too large"}
		}
		writeJSON(w, r, http.StatusCreated, f, err)
		return
	}
}

// downloadFile serves a submission's file to whoever may see the hackathon.
func (a *API) downloadFile(w http.ResponseWriter, r *http.Request, c caller) {
	sub, fileID := muxVar(r, "submission_id"), muxVar(r, "file_id")
	var f hackathon.File
	err := a.view(r, c, func(h *hackathon.Hackathon) error {
		s := h.Submissions[sub]
		if s == nil {
			return hackathon.SubmissionNotFound(sub)
		}
		for _, x := range s.Files {
			if x.FileID == fileID {
				f = x
				return nil
			}
		}
		return kernel.NotFound("file " + fileID + " not found on submission " + sub)
	})
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	b, err := a.svc.OpenFile(r.Context(), hid(r), f.SHA256)
	if errors.Is(err, os.ErrNotExist) {
		err = kernel.NotFound("the file's bytes are missing from the blob store")
	}
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	defer b.Close()
	w.Header().Set("Content-Type", f.ContentType)
	w.Header().Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": f.Name}))
	w.Header().Set("X-Content-Type-Options", "nosniff")
	http.ServeContent(w, r, "", b.ModTime(), b)
}

// BodyLimit returns the hackathon surface's body limit override: the file
// upload route takes MaxUploadBytes(fileLimit), every other route the
// surface's default.
func BodyLimit(fileLimit int64) func(r *http.Request) int64 {
	return func(r *http.Request) int64 {
		if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/files") && strings.HasPrefix(r.URL.Path, "/api/v1/hackathons/") {
			return MaxUploadBytes(fileLimit)
		}
		return 0
	}
}

package content

import (
	"context"
	"net/http"

	"github.com/gorilla/mux"

	cmd "github.com/strata-platform/strata/commands/content"
	"github.com/strata-platform/strata/domain/content"
)

// publishBody is POST /social/publish's body.
type publishBody struct {
	Platforms []string `json:"platforms"`
	ReelURL   string   `json:"reel_url"`
	Caption   string   `json:"caption"`
	TwinID    string   `json:"twin_id"`
	Title     string   `json:"title"`
}

// resultJSON is one platform's part of a publish job.
type resultJSON struct {
	Platform       string  `json:"platform"`
	TaskID         string  `json:"task_id"`
	Status         string  `json:"status"` // the task's: queued, processing, done, error
	State          string  `json:"state"`  // the target's
	Reason         *string `json:"reason"`
	PlatformPostID *string `json:"platform_post_id"`
	URL            *string `json:"url"`
}

// taskStatus maps a target's state to its task's status.
func taskStatus(state string) string {
	switch state {
	case content.StatePending:
		return content.TaskQueued
	case content.StatePublished:
		return content.TaskDone
	case content.StateFailed:
		return content.TaskError
	}
	return content.TaskProcessing
}

// jobStatus maps a post's status to a publish job's.
func jobStatus(status string) string {
	switch status {
	case content.StatusPublished:
		return content.TaskDone
	case content.StatusFailed:
		return content.TaskError
	}
	return content.TaskProcessing
}

// publish serves POST /social/publish: 202 {job_id, status, results[]},
// one result per platform with its task id; a platform without a connected
// account is an error result at once (reason not_connected).
func (a *API) publish(w http.ResponseWriter, r *http.Request, c caller) {
	var b publishBody
	if err := decode(r, &b); err != nil {
		writeErr(w, r, err)
		return
	}
	if b.Platforms == nil {
		writeErr(w, r, required("platforms"))
		return
	}
	p, err := a.svc.Publish(r.Context(), c.actor, cmd.PublishInput{Platforms: b.Platforms, ReelURL: b.ReelURL, Caption: b.Caption,
		TwinID: b.TwinID, Title: b.Title})
	if err != nil {
		writeErr(w, r, err)
		return
	}
	out, err := a.job(r.Context(), c.actor.Owner, p.PostID)
	writeJSON(w, r, http.StatusAccepted, out, err)
}

// job reads a publish job.
func (a *API) job(ctx context.Context, owner, id string) (map[string]any, error) {
	it, err := a.oneItem(ctx, owner, content.OriginPublish, id)
	if err != nil {
		return nil, err
	}
	results := []resultJSON{}
	for _, pl := range it.Platforms {
		var latest *targetJSON
		for i := range it.Targets {
			if it.Targets[i].Platform == pl {
				latest = &it.Targets[i]
			}
		}
		if latest == nil {
			results = append(results, resultJSON{Platform: pl, Status: content.TaskQueued, State: content.StatePending})
			continue
		}
		results = append(results, resultJSON{Platform: pl, TaskID: latest.TaskID, Status: taskStatus(latest.State), State: latest.State,
			Reason: latest.Reason, PlatformPostID: latest.PlatformPostID, URL: latest.URL})
	}
	return map[string]any{"job_id": it.ID, "status": jobStatus(it.Status), "caption": it.Script, "twin_id": it.TwinID,
		"created_at": it.CreatedAt, "results": results}, nil
}

// publishStatus serves GET /social/publish/{job_id}.
func (a *API) publishStatus(w http.ResponseWriter, r *http.Request, c caller) {
	out, err := a.job(r.Context(), c.actor.Owner, mux.Vars(r)["job_id"])
	writeJSON(w, r, http.StatusOK, out, err)
}

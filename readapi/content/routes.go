package content

import (
	"net/http"

	"github.com/gorilla/mux"
)

// Routes adds the content workflow's routes to the platform API's router.
func Routes(r *mux.Router, cfg Config) *API {
	a := &API{cfg: cfg, svc: cfg.Service, db: cfg.DB}
	const b = Base
	get, post, patch, del := http.MethodGet, http.MethodPost, http.MethodPatch, http.MethodDelete

	r.Handle(b+"/tasks/{task_id}", a.need(a.task)).Methods(get)
	r.Handle("/api/v1/tasks/{task_id}", a.need(a.task)).Methods(get)

	r.Handle(b+"/twins", a.need(a.createTwin)).Methods(post)
	r.Handle(b+"/twins", a.need(a.listTwins)).Methods(get)
	r.Handle(b+"/twins/{twin_id}", a.need(a.getTwin)).Methods(get)
	r.Handle(b+"/twins/{twin_id}", a.need(a.patchTwin)).Methods(patch)
	r.Handle(b+"/twins/{twin_id}", a.need(a.deleteTwin)).Methods(del)

	const cal = b + "/content/calendar"
	r.Handle(cal, a.need(a.schedule)).Methods(post)
	r.Handle(cal, a.need(a.listItems)).Methods(get)
	// Fixed paths before /{item_id}, which would match them too.
	r.Handle(cal+"/export.ics", a.need(a.exportICS)).Methods(get)
	r.Handle(cal+"/export.csv", a.need(a.exportCSV)).Methods(get)
	r.Handle(cal+"/retry-failed", a.need(a.retryFailed)).Methods(post)
	r.Handle(cal+"/limits", a.need(a.limits)).Methods(get)
	r.Handle(cal+"/{item_id}", a.need(a.getItem)).Methods(get)
	r.Handle(cal+"/{item_id}", a.need(a.deleteItem)).Methods(del)
	r.Handle(cal+"/{item_id}/retry", a.need(a.retryItem)).Methods(post)

	r.Handle(b+"/social/connect/{platform}", a.need(a.connect)).Methods(get)
	r.Handle(b+"/social/callback/{platform}", http.HandlerFunc(a.callback)).Methods(get)
	r.Handle(b+"/social/accounts", a.need(a.accounts)).Methods(get)
	r.Handle(b+"/social/disconnect/{platform}", a.need(a.disconnect)).Methods(del)
	r.Handle(b+"/social/publish", a.need(a.publish)).Methods(post)
	r.Handle(b+"/social/publish/{job_id}", a.need(a.publishStatus)).Methods(get)

	r.Handle(b+"/captions/generate", a.need(a.generateCaption)).Methods(post)
	r.Handle(b+"/captions/{caption_id}", a.need(a.getCaption)).Methods(get)
	r.Handle(b+"/captions/{caption_id}/burn-in", a.need(a.burnIn)).Methods(post)

	r.Handle(b+"/bulk/reels", a.need(a.submitReels)).Methods(post)
	r.Handle(b+"/bulk/reels/{batch_id}", a.need(a.getBatch)).Methods(get)

	const av = b + "/multimodal/avatar"
	r.Handle(av+"/generate", a.need(a.generateAvatar)).Methods(post)
	r.Handle(av+"/options", a.need(a.avatarOptions)).Methods(get)
	r.Handle(av+"/webhook-secret", a.need(a.webhookSecret)).Methods(get)
	r.Handle(av+"/{job_id}", a.need(a.getAvatar)).Methods(get)
	r.Handle(av+"/{job_id}/provider-webhook/{provider}", http.HandlerFunc(a.providerWebhook)).Methods(post)

	r.Handle(b+"/analytics/social", a.need(a.analytics)).Methods(get)
	r.Handle(b+"/analytics/social/summary", a.need(a.summary)).Methods(get)
	r.Handle(b+"/analytics/social/export", a.need(a.export)).Methods(post)
	r.Handle(b+"/downloads/{token}", http.HandlerFunc(a.download)).Methods(get, http.MethodHead)
	return a
}

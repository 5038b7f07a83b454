package voice

import (
	"net/http"

	"github.com/gorilla/mux"

	"github.com/strata-platform/strata/readapi/apidocs"
	"github.com/strata-platform/strata/readapi/httpx"
)

// Routes adds the voice routes to the voice surface's router (the health
// checks are the surface's own).
func Routes(r *mux.Router, cfg Config) *API {
	if cfg.Limiter == nil {
		cfg.Limiter = httpx.NewWindowLimiter(DefaultRate, nil)
	}
	a := &API{svc: cfg.Service, db: cfg.DB, auth: cfg.Auth, limit: cfg.Limiter}
	get, post, put, del := http.MethodGet, http.MethodPost, http.MethodPut, http.MethodDelete
	const v1 = "/api/v1"
	const call = v1 + "/calls/{call_id}"

	r.HandleFunc("/openapi.json", OpenAPI).Methods(get)
	r.Handle("/docs", apidocs.Handler("Strata voice API", "/openapi.json")).Methods(get)

	r.Handle(v1+"/calls/outbound", a.need(a.outbound)).Methods(post)
	r.Handle(v1+"/calls/live", a.need(a.live)).Methods(get)
	r.Handle(v1+"/calls/logs", a.need(a.logs)).Methods(get)
	r.Handle(call, a.need(a.getCall)).Methods(get)
	r.Handle(call+"/transfer", a.need(a.transfer)).Methods(post)
	r.Handle(call+"/hangup", a.need(a.hangup)).Methods(post)
	r.Handle(call+"/recordings", a.need(a.recordings)).Methods(get)
	r.Handle(call+"/recordings/{recording_id}", a.need(a.recordingFile)).Methods(get)
	r.Handle(call+"/notes", a.need(a.notes)).Methods(get)
	r.Handle(call+"/notes", a.need(a.addNote)).Methods(post)
	r.Handle(call+"/disposition", a.need(a.setDisposition)).Methods(put)
	r.Handle(call+"/callbacks", a.need(a.callbacks)).Methods(get)

	r.Handle(v1+"/sms/send", a.need(a.sendSMS)).Methods(post)
	r.Handle(v1+"/sms/{message_id}", a.need(a.getSMS)).Methods(get)

	const vm = v1 + "/voicemails/{voicemail_id}"
	r.Handle(v1+"/voicemails", a.need(a.voicemails)).Methods(get)
	r.Handle(vm, a.need(a.getVoicemail)).Methods(get)
	r.Handle(vm, a.need(a.moveVoicemail)).Methods(http.MethodPatch)
	r.Handle(vm+"/read", a.need(a.moveTo("read"))).Methods(post)
	r.Handle(vm+"/unread", a.need(a.moveTo("new"))).Methods(post)
	r.Handle(vm+"/archive", a.need(a.moveTo("archived"))).Methods(post)

	r.Handle(v1+"/contacts", a.need(a.createContact)).Methods(post)
	r.Handle(v1+"/contacts", a.need(a.listContacts)).Methods(get)
	r.Handle(v1+"/contacts/{contact_id}", a.need(a.getContact)).Methods(get)
	r.Handle(v1+"/contacts/{contact_id}/calls", a.need(a.contactCalls)).Methods(get)

	r.Handle(v1+"/numbers", a.need(a.listNumbers)).Methods(get)
	r.Handle(v1+"/numbers/search", a.need(a.searchNumbers)).Methods(post)
	r.Handle(v1+"/numbers/purchase", a.need(a.purchase)).Methods(post)
	r.Handle(v1+"/numbers/{number_id}/config", a.need(a.configure)).Methods(put)
	r.Handle(v1+"/numbers/{number_id}", a.need(a.release)).Methods(del)

	r.Handle(v1+"/compliance/dnc", a.need(a.dnc)).Methods(get)
	r.Handle(v1+"/compliance/dnc", a.need(a.addDNC)).Methods(post)
	r.Handle(v1+"/compliance/dnc/{phone}", a.need(a.removeDNC)).Methods(del)
	r.Handle(v1+"/compliance/calling-hours", a.need(a.callingHours)).Methods(get)
	r.Handle(v1+"/compliance/calling-hours", a.need(a.setCallingHours)).Methods(put)
	r.Handle(v1+"/compliance/gdpr/export", a.need(a.gdprExport)).Methods(post)
	r.Handle(v1+"/compliance/gdpr/delete", a.need(a.gdprDelete)).Methods(post)
	r.Handle(v1+"/callbacks/signing-secret", a.need(a.signingSecret)).Methods(get)

	r.Handle(v1+"/transcripts", a.need(a.transcripts)).Methods(get)
	r.Handle(v1+"/transcripts/search", a.need(a.searchTranscripts)).Methods(get)
	r.Handle(v1+"/transcripts/call/{call_id}", a.need(a.callTranscripts)).Methods(get)
	r.Handle(v1+"/analytics/sentiment/{call_id}", a.need(a.sentiment)).Methods(get)
	r.Handle(v1+"/analytics/call-volume", a.need(a.callVolume)).Methods(get)
	r.Handle(v1+"/analytics/agent-performance", a.need(a.agentPerformance)).Methods(get)
	r.Handle(v1+"/analytics/queue-reports", a.need(a.queueReports)).Methods(get)
	r.Handle(v1+"/analytics/dispositions", a.need(a.dispositions)).Methods(get)
	r.Handle(v1+"/billing/usage", a.need(a.usage)).Methods(get)

	for path, h := range cfg.Handlers {
		r.Handle(v1+"/providers/"+path, h).Methods(post)
	}
	return a
}

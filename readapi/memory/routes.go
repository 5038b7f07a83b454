package memory

import (
	"net/http"

	"github.com/gorilla/mux"
)

// Routes adds the memory service's routes to the platform API's router.
func Routes(r *mux.Router, cfg Config) *API {
	a := New(cfg)
	const m = Base
	get, post, del := http.MethodGet, http.MethodPost, http.MethodDelete
	rd, wr := ScopeRead, ScopeWrite

	r.Handle(m+"/remember", a.need(wr, a.remember)).Methods(post)
	r.Handle(m+"/recall", a.need(rd, a.recall)).Methods(post)
	r.Handle(m+"/forget/{memory_id}", a.need(wr, a.forgetPath)).Methods(del)
	r.Handle(m+"/forget", a.need(wr, a.forgetBody)).Methods(post)
	r.Handle(m+"/relate", a.need(wr, a.relate)).Methods(post)
	r.Handle(m+"/graph/{entity_id}", a.need(rd, a.graph)).Methods(get)
	r.Handle(m+"/entities", a.need(rd, a.entities)).Methods(get)
	r.Handle(m+"/entities/{entity_id}/timeline", a.need(rd, a.timeline)).Methods(get)
	r.Handle(m+"/entities/{entity_id}", a.need(wr, a.deleteEntity)).Methods(del)
	r.Handle(m+"/entities/{entity_id}/merge", a.need(wr, a.mergeEntity)).Methods(post)
	r.Handle(m+"/reflect/{entity_id}", a.need(rd, a.reflect)).Methods(post)
	r.Handle(m+"/reflect", a.need(rd, a.reflect)).Methods(post)
	r.Handle(m+"/profile/{entity_id}", a.need(rd, a.profile)).Methods(get)
	r.Handle(m+"/profile", a.need(rd, a.profile)).Methods(post)
	r.Handle(m+"/process", a.need(wr, a.process)).Methods(post)
	r.Handle(m+"/context", a.need(rd, a.context)).Methods(post)
	r.Handle(m+"/actions/chat/send", a.need(wr, a.chatSend(cfg.Actions))).Methods(post)
	r.Handle(m+"/actions/mail/reply", a.need(wr, a.mailReply(cfg.Actions))).Methods(post)
	r.Handle(m+"/actions/calendar/create", a.need(wr, a.calendarCreate(cfg.Actions))).Methods(post)
	r.Handle(m+"/actions/issues/create", a.need(wr, a.issueCreate(cfg.Actions))).Methods(post)
	r.Handle(m+"/actions/notes/page", a.need(wr, a.notesPage(cfg.Actions))).Methods(post)
	r.Handle(m+"/connections", a.need(rd, a.connectionsList(cfg.Connections))).Methods(get)
	r.Handle(m+"/connections/{provider}/connect", a.need(wr, a.connectionConnect(cfg.Connections))).Methods(get)
	r.Handle(m+"/connections/{provider}/callback", a.connectionCallback(cfg.Connections)).Methods(get)
	r.Handle(m+"/connections/{provider}", a.need(wr, a.connectionToken(cfg.Connections))).Methods(post)
	r.Handle(m+"/connections/{provider}", a.need(wr, a.connectionDelete(cfg.Connections))).Methods(del)
	return a
}

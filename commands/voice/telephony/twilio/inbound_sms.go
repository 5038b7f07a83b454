package twilio

import (
	"context"
	"net/http"

	"github.com/strata-platform/strata/commands/voice/telephony"
)

var _ telephony.SMSReceiver = (*Provider)(nil)

// ReceiveSMS implements telephony.SMSReceiver: messages Twilio posts to
// SMSHandler go to handle.
func (p *Provider) ReceiveSMS(handle func(ctx context.Context, m telephony.InboundSMS) error) {
	p.mu.Lock()
	p.onSMS = handle
	p.mu.Unlock()
}

// emptyTwiML answers a message without replying to its sender.
const emptyTwiML = `<?xml version="1.0" encoding="UTF-8"?><Response></Response>`

// SMSHandler serves Config.InboundSMSURL, Twilio's messaging webhook: a
// message that arrived at one of our numbers (From, To, Body, MessageSid),
// signed with X-Twilio-Signature (403 when it is not valid). The message
// goes to the ReceiveSMS handler; its refusal answers 500 (Twilio then
// reports the webhook failed), its acceptance an empty TwiML response.
func (p *Provider) SMSHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !p.webhook(w, r, p.cfg.InboundSMSURL, "inbound message") {
			return
		}
		p.mu.Lock()
		handle := p.onSMS
		p.mu.Unlock()
		f := r.PostForm
		if handle == nil || f.Get("From") == "" || f.Get("To") == "" {
			http.Error(w, "no receiver", http.StatusServiceUnavailable)
			return
		}
		m := telephony.InboundSMS{ProviderID: f.Get("MessageSid"), From: f.Get("From"), To: f.Get("To"), Body: f.Get("Body")}
		if err := handle(r.Context(), m); err != nil {
			p.log.Warn("twilio: inbound message refused", "sid", m.ProviderID, "err", err)
			http.Error(w, "not accepted", http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "text/xml")
		_, _ = w.Write([]byte(emptyTwiML))
	})
}

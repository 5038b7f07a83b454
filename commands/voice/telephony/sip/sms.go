package sip

import (
	"context"
	"mime"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/emiago/sipgo/sip"

	"github.com/strata-platform/strata/commands/voice/telephony"
)

// smsAnswerWithin bounds an inbound MESSAGE's handler: the sender
// retransmits until it has a final answer and gives up after Timer F
// (64*T1 = 32 s).
const smsAnswerWithin = 10 * time.Second

var _ telephony.SMSReceiver = (*Provider)(nil)

// ReceiveSMS sets the handler of inbound MESSAGEs (RFC 3428); without one
// they are answered 480.
func (p *Provider) ReceiveSMS(handle func(ctx context.Context, m telephony.InboundSMS) error) {
	p.mu.Lock()
	p.handleSMS = handle
	p.mu.Unlock()
}

// onMessage takes a MESSAGE: a text/plain UTF-8 body goes to the handler,
// and its answer decides ours (nil: 200, an error: 500). Retransmissions
// of the request are absorbed by its server transaction, so the handler
// runs once per transaction.
func (p *Provider) onMessage(req *sip.Request, tx sip.ServerTransaction) {
	p.mu.Lock()
	handle := p.handleSMS
	p.mu.Unlock()
	if handle == nil || p.ctx.Err() != nil {
		respond(tx, req, 480, "Temporarily Unavailable")
		return
	}
	if ct := req.ContentType(); ct == nil || !plainText(ct.Value()) {
		res := sip.NewResponseFromRequest(req, 415, "Unsupported Media Type", nil)
		res.AppendHeader(sip.NewHeader("Accept", "text/plain"))
		_ = tx.Respond(res)
		return
	}
	body := req.Body()
	if !utf8.Valid(body) {
		respond(tx, req, 400, "Body Is Not UTF-8")
		return
	}
	m := telephony.InboundSMS{Body: string(body)}
	if cid, cseq := req.CallID(), req.CSeq(); cid != nil && cseq != nil {
		m.ProviderID = cid.Value() + "/" + strconv.FormatUint(uint64(cseq.SeqNo), 10)
	}
	if f := req.From(); f != nil {
		m.From = f.Address.User
	}
	if to := req.To(); to != nil {
		m.To = to.Address.User
	}
	ctx, cancel := context.WithTimeout(p.ctx, smsAnswerWithin)
	defer cancel()
	if err := handle(ctx, m); err != nil {
		p.log.Warn("sip: inbound MESSAGE refused", "call_id", m.ProviderID, "err", err)
		respond(tx, req, 500, "Server Internal Error")
		return
	}
	respond(tx, req, 200, "OK")
}

// plainText reports whether a Content-Type is text/plain in UTF-8 (or
// US-ASCII, its subset; no charset means UTF-8 per RFC 3428).
func plainText(v string) bool {
	mt, params, err := mime.ParseMediaType(v)
	if err != nil || mt != "text/plain" {
		return false
	}
	cs := strings.ToLower(params["charset"])
	return cs == "" || cs == "utf-8" || cs == "us-ascii"
}

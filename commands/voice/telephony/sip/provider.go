package sip

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/emiago/sipgo"
	"github.com/emiago/sipgo/sip"
	"github.com/google/uuid"

	"github.com/strata-platform/strata/commands/voice/telephony"
)

// Config configures a Provider.
type Config struct {
	// ListenAddr is our UDP host:port for SIP ("127.0.0.1:0" picks a free
	// port; Provider.Addr tells which). The host must be an IP address: it
	// goes into Via, Contact and SDP as is.
	ListenAddr string
	// Trunk is the host:port of the SIP trunk or proxy every request goes
	// to (INVITE, MESSAGE, OPTIONS, transfer targets).
	Trunk string
	// Domain is the host of our From URIs; empty means the listen IP.
	Domain string
	// RTPPortMin and RTPPortMax bound the RTP ports (even ports are used);
	// both 0 means ephemeral ports on the listen IP.
	RTPPortMin, RTPPortMax int
	// RingTimeout is how long an outbound call rings when its request
	// does not say (0: telephony.DefaultRingTimeout), and how long an
	// inbound call waits for Answer or Reject before we answer 480.
	RingTimeout time.Duration
	// TransferTimeout bounds the wait for a transfer's NOTIFY and, after
	// a successful transfer, for the far end's BYE before we send one
	// (0: 10 s).
	TransferTimeout time.Duration
	// Logger receives the adapter's and sipgo's logs (nil: slog.Default).
	Logger *slog.Logger
	// Now stamps reports (nil: time.Now).
	Now func() time.Time
}

// Provider is the SIP adapter: telephony.Provider and telephony.Receiver.
type Provider struct {
	cfg    Config
	log    *slog.Logger
	now    func() time.Time
	ua     *sipgo.UserAgent
	srv    *sipgo.Server
	cli    *sipgo.Client
	dua    *sipgo.DialogUA
	conn   net.PacketConn
	addr   *net.UDPAddr
	trunk  sip.Uri // host and port of the trunk
	domain string
	ctx    context.Context
	cancel context.CancelFunc
	served chan struct{}

	rtpNext   atomic.Uint32
	closeOnce sync.Once
	calls     sync.WaitGroup // call goroutines

	mu        sync.Mutex // guards dialogs and the handlers; never held across I/O
	dialogs   map[string]dialogHandler
	handle    func(ctx context.Context, in telephony.Inbound)
	handleSMS func(ctx context.Context, m telephony.InboundSMS) error
}

// dialogHandler receives the in-dialog requests of one of our calls,
// routed by Call-ID.
type dialogHandler interface {
	onBye(req *sip.Request, tx sip.ServerTransaction)
	onNotify(req *sip.Request, tx sip.ServerTransaction)
	onReInvite(req *sip.Request, tx sip.ServerTransaction)
	onAck(req *sip.Request, tx sip.ServerTransaction)
}

var (
	_ telephony.Provider = (*Provider)(nil)
	_ telephony.Receiver = (*Provider)(nil)
)

// New listens on cfg.ListenAddr and serves SIP until Close; ctx only
// bounds the setup (the provider outlives it).
func New(ctx context.Context, cfg Config) (*Provider, error) {
	if cfg.Trunk == "" {
		return nil, errors.New("sip: Config.Trunk is required")
	}
	th, tp, err := net.SplitHostPort(cfg.Trunk)
	if err != nil {
		return nil, fmt.Errorf("sip: Config.Trunk: %w", err)
	}
	tport, err := strconv.Atoi(tp)
	if err != nil {
		return nil, fmt.Errorf("sip: Config.Trunk port: %w", err)
	}
	if cfg.ListenAddr == "" {
		cfg.ListenAddr = "127.0.0.1:0"
	}
	if cfg.RingTimeout <= 0 {
		cfg.RingTimeout = telephony.DefaultRingTimeout
	}
	if cfg.TransferTimeout <= 0 {
		cfg.TransferTimeout = 10 * time.Second
	}
	p := &Provider{cfg: cfg, log: cfg.Logger, now: cfg.Now, dialogs: map[string]dialogHandler{}}
	if p.log == nil {
		p.log = slog.Default()
	}
	if p.now == nil {
		p.now = time.Now
	}
	p.trunk = sip.Uri{Scheme: "sip", Host: th, Port: tport}

	conn, err := net.ListenPacket("udp", cfg.ListenAddr)
	if err != nil {
		return nil, fmt.Errorf("sip: listen: %w", err)
	}
	p.conn = conn
	p.addr = conn.LocalAddr().(*net.UDPAddr)
	if p.addr.IP.IsUnspecified() {
		conn.Close()
		return nil, errors.New("sip: Config.ListenAddr needs an IP address, not a wildcard")
	}
	p.domain = cfg.Domain
	if p.domain == "" {
		p.domain = p.addr.IP.String()
	}

	sipLog := p.log.With("component", "sipgo")
	ua, err := sipgo.NewUA(
		sipgo.WithUserAgent("strata"),
		sipgo.WithUserAgentHostname(p.domain),
		sipgo.WithUserAgentTransactionLayerOptions(sip.WithTransactionLayerLogger(sipLog)),
		sipgo.WithUserAgentTransportLayerOptions(sip.WithTransportLayerLogger(sipLog)),
	)
	if err != nil {
		conn.Close()
		return nil, err
	}
	p.ua = ua
	if p.srv, err = sipgo.NewServer(ua, sipgo.WithServerLogger(sipLog)); err != nil {
		p.closeUA()
		return nil, err
	}
	p.cli, err = sipgo.NewClient(ua,
		sipgo.WithClientLogger(sipLog),
		sipgo.WithClientHostname(p.addr.IP.String()),
		sipgo.WithClientConnectionAddr(p.addr.String()),
	)
	if err != nil {
		p.closeUA()
		return nil, err
	}
	p.dua = &sipgo.DialogUA{
		Client: p.cli,
		ContactHDR: sip.ContactHeader{
			Address: sip.Uri{Scheme: "sip", User: "strata", Host: p.addr.IP.String(), Port: p.addr.Port},
		},
	}
	p.srv.OnInvite(p.onInvite)
	p.srv.OnAck(p.onAck)
	p.srv.OnBye(p.inDialog(func(h dialogHandler, r *sip.Request, tx sip.ServerTransaction) { h.onBye(r, tx) }))
	p.srv.OnNotify(p.inDialog(func(h dialogHandler, r *sip.Request, tx sip.ServerTransaction) { h.onNotify(r, tx) }))
	p.srv.OnMessage(p.onMessage)
	p.srv.OnOptions(func(req *sip.Request, tx sip.ServerTransaction) {
		respond(tx, req, 200, "OK")
	})
	p.srv.OnCancel(func(req *sip.Request, tx sip.ServerTransaction) {
		respond(tx, req, 481, "Call/Transaction Does Not Exist")
	})

	if err := ctx.Err(); err != nil {
		p.closeUA()
		return nil, err
	}
	p.ctx, p.cancel = context.WithCancel(context.WithoutCancel(ctx))
	p.served = make(chan struct{})
	go func() {
		defer close(p.served)
		if err := p.srv.ServeUDP(conn); err != nil && p.ctx.Err() == nil {
			p.log.Error("sip: serve", "err", err)
		}
	}()
	// Requests go out from the listening socket: wait until sipgo has it
	// in its connection pool (ServeUDP adds it before reading).
	for i := 0; ; i++ {
		if c, _ := ua.TransportLayer().GetConnection("udp", p.addr.String()); c != nil {
			break
		}
		if i == 500 {
			p.Close()
			return nil, errors.New("sip: listener did not start")
		}
		time.Sleep(2 * time.Millisecond)
	}
	return p, nil
}

func (p *Provider) closeUA() {
	p.ua.Close()
	p.conn.Close()
}

// Close ends every live call (their Ended reports say "provider_closed"),
// waits for the call goroutines and stops listening.
func (p *Provider) Close() {
	p.closeOnce.Do(func() {
		p.cancel()
		p.calls.Wait()
		p.conn.Close()
		p.ua.Close()
		<-p.served
	})
}

// Name is "sip".
func (p *Provider) Name() string { return "sip" }

// Addr is the bound SIP listen address.
func (p *Provider) Addr() *net.UDPAddr { return p.addr }

// Receive sets the handler of inbound calls; without one, INVITEs are
// answered 480.
func (p *Provider) Receive(handle func(ctx context.Context, in telephony.Inbound)) {
	p.mu.Lock()
	p.handle = handle
	p.mu.Unlock()
}

func (p *Provider) register(callID string, h dialogHandler) {
	p.mu.Lock()
	p.dialogs[callID] = h
	p.mu.Unlock()
}

func (p *Provider) unregister(callID string, h dialogHandler) {
	p.mu.Lock()
	if p.dialogs[callID] == h {
		delete(p.dialogs, callID)
	}
	p.mu.Unlock()
}

func (p *Provider) lookup(req *sip.Request) dialogHandler {
	cid := req.CallID()
	if cid == nil {
		return nil
	}
	p.mu.Lock()
	h := p.dialogs[cid.Value()]
	p.mu.Unlock()
	return h
}

func (p *Provider) inDialog(f func(dialogHandler, *sip.Request, sip.ServerTransaction)) sipgo.RequestHandler {
	return func(req *sip.Request, tx sip.ServerTransaction) {
		h := p.lookup(req)
		if h == nil {
			respond(tx, req, 481, "Call/Transaction Does Not Exist")
			return
		}
		f(h, req, tx)
	}
}

func (p *Provider) onAck(req *sip.Request, tx sip.ServerTransaction) {
	if h := p.lookup(req); h != nil {
		h.onAck(req, tx)
	}
}

func respond(tx sip.ServerTransaction, req *sip.Request, code int, reason string) {
	_ = tx.Respond(sip.NewResponseFromRequest(req, code, reason, nil))
}

// uri is sip:<user>@<trunk>.
func (p *Provider) uri(user string) sip.Uri {
	u := p.trunk
	u.User = user
	return u
}

// fromHeader is <sip:<user>@<Domain>>;tag=...
func (p *Provider) fromHeader(user string) *sip.FromHeader {
	from := &sip.FromHeader{Address: sip.Uri{Scheme: "sip", User: user, Host: p.domain}, Params: sip.NewParams()}
	from.Params.Add("tag", sip.GenerateTagN(16))
	return from
}

func newCallID() string { return uuid.NewString() }

// SendSMS sends a SIP MESSAGE (RFC 3428, text/plain) to sip:<To>@<Trunk>.
// A 2xx is "sent" with the MESSAGE's Call-ID as ProviderID; a final
// 3xx-6xx is an error wrapping telephony.ErrRejected; no answer before
// the context ends (or Timer F) is an error. MediaURLs are not sent.
func (p *Provider) SendSMS(ctx context.Context, req telephony.SMSRequest) (telephony.SMSResult, error) {
	callID := newCallID()
	m := sip.NewRequest(sip.MESSAGE, p.uri(req.To))
	m.AppendHeader(p.fromHeader(req.From))
	m.AppendHeader(&sip.ToHeader{Address: p.uri(req.To)})
	cid := sip.CallIDHeader(callID)
	m.AppendHeader(&cid)
	if req.MessageID != "" {
		m.AppendHeader(sip.NewHeader("X-Strata-Message-ID", req.MessageID))
	}
	ct := sip.ContentTypeHeader("text/plain;charset=UTF-8")
	m.AppendHeader(&ct)
	m.SetBody([]byte(req.Body))
	res, err := p.cli.Do(ctx, m)
	if err != nil {
		return telephony.SMSResult{}, fmt.Errorf("sip: MESSAGE to %s: %w", req.To, err)
	}
	if !res.IsSuccess() {
		return telephony.SMSResult{}, fmt.Errorf("%w: MESSAGE to %s: SIP %d %s", telephony.ErrRejected, req.To, res.StatusCode, res.Reason)
	}
	return telephony.SMSResult{ProviderID: callID, Status: "sent"}, nil
}

// Ping sends OPTIONS to the trunk. Any SIP response before the context's
// deadline (even a 4xx/5xx: something SIP is answering) is healthy; none
// is an error. Without a deadline it waits up to 5 s.
func (p *Provider) Ping(ctx context.Context) error {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
	}
	o := sip.NewRequest(sip.OPTIONS, p.trunk)
	o.AppendHeader(p.fromHeader("strata"))
	_, err := p.cli.Do(ctx, o)
	if err != nil {
		return fmt.Errorf("sip: OPTIONS %s: %w", p.cfg.Trunk, err)
	}
	return nil
}

// sipfragCode reads the status code of a message/sipfrag body
// ("SIP/2.0 200 OK").
func sipfragCode(body []byte) int {
	line, _, _ := strings.Cut(string(body), "\n")
	f := strings.Fields(line)
	if len(f) < 2 || !strings.HasPrefix(f[0], "SIP/") {
		return 0
	}
	code, _ := strconv.Atoi(f[1])
	return code
}

package main

import (
	"context"
	stdsql "database/sql"
	"errors"
	"fmt"
	"net"
	"os"
	"strconv"

	cmdidentity "github.com/strata-platform/strata/commands/identity"
	cmdvoice "github.com/strata-platform/strata/commands/voice"
	"github.com/strata-platform/strata/domain/voice"
	"github.com/strata-platform/strata/eventstore/storebench"
	"github.com/strata-platform/strata/readapi/voice/voicebench"
)

// benchVoice runs `strata bench voice [--quick]`: the voice surface of
// `strata serve` itself (benchVoiceServer) on the scratch database, its
// SIP adapter on loopback facing SIPp, at the load (50 calls/s
// each way and 200 SMS/s for 20 s; --quick: 5 s), measured by
// readapi/voice/voicebench.
func (c *command) benchVoice(ctx context.Context, scratch *storebench.Scratch, quick bool) error {
	opts := voicebench.Full()
	if quick {
		opts = voicebench.Quick()
	}
	c.logger.Info("bench running in a scratch database", "database", scratch.Name, "mode", opts.Mode)
	opts.Progress = c.stderr
	opts.Start = func(ctx context.Context, trunk string) (*voicebench.Server, error) {
		return c.benchVoiceServer(ctx, scratch.URL, scratch.DB, trunk)
	}
	rep, err := voicebench.Run(ctx, opts)
	if err != nil {
		return err
	}
	return rep.Print(c.stdout)
}

// benchVoiceEnv is the configuration `strata bench voice` serves with,
// beyond the database, the data directory and the listen addresses: the
// SIP trunk is the bench's SIPp; the per-tenant rate limit (the seed's 200
// requests a minute, readvoice.DefaultRate) is raised, since the bench's
// one tenant sends 50 calls and 200 messages a second; the status
// callbacks may reach the bench's receiver on loopback; the health ping of
// the trunk runs once, at the start (a SIPp UAS answers that OPTIONS: a
// later one would reach a UAS that expects an INVITE); recordings are not
// transcribed (the calls record nothing anyway).
func benchVoiceEnv(trunk, sipListen string) map[string]string {
	return map[string]string{
		"STRATA_VOICE_SIP_TRUNK":       trunk,
		"STRATA_VOICE_SIP_LISTEN":      sipListen,
		"STRATA_VOICE_SIP_DOMAIN":      "strata.test",
		"STRATA_VOICE_RATE_LIMIT":      "1000000",
		"STRATA_OUTBOUND_ALLOW":        "127.0.0.1",
		"STRATA_VOICE_HEALTH_INTERVAL": "1h",
		"STRATA_TRANSCRIBE":            "off",
	}
}

// benchVoiceServer starts `strata serve --surfaces voice` with the
// production wiring on the database at dbURL (a scratch database), on
// free loopback ports (HTTP and the SIP listener), with a data directory
// of its own and benchVoiceEnv; projectors, jobs (the status callbacks)
// and read-your-writes waits run as in production. The tenant is a user
// registered through the running server's identity service; numbers are
// imported through its voice service.
func (c *command) benchVoiceServer(ctx context.Context, dbURL string, db *stdsql.DB, trunk string) (_ *voicebench.Server, err error) {
	dir, err := os.MkdirTemp("", "strata-bench-voice-")
	if err != nil {
		return nil, err
	}
	env := map[string]string{"DATABASE_URL": dbURL, "STRATA_DATA_DIR": dir}
	var addrs []string
	for _, key := range []string{"STRATA_VOICE_ADDR", "STRATA_ADMIN_ADDR"} {
		a, err := freeLoopbackAddr()
		if err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
		env[key], addrs = a, append(addrs, a)
	}
	sipListen, err := freeLoopbackUDP()
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	for k, v := range benchVoiceEnv(trunk, sipListen) {
		env[k] = v
	}
	app, done, closeServer, err := c.benchServe(ctx, "bench voice", "voice", dir, env)
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	defer func() {
		if err != nil {
			_ = closeServer()
		}
	}()
	base := "http://" + addrs[0]
	if err := waitHealthy(ctx, base, done); err != nil {
		return nil, err
	}
	if app.Voice == nil || app.Identity == nil || app.Voice.Provider() == nil {
		return nil, errors.New("bench voice: serve's wiring runs no voice service, no SIP provider or no identity")
	}
	s, err := app.Identity.Service.Register(ctx, cmdidentity.Register{Email: "voice-bench@example.com", Password: "Voice-bench-pass-1",
		FullName: "Voice Bench"})
	if err != nil {
		return nil, fmt.Errorf("bench voice: register the tenant's user: %w", err)
	}
	pg, err := serverSettings(ctx, db)
	if err != nil {
		return nil, err
	}
	imp := func(ctx context.Context, phone string) error {
		_, err := app.Voice.ImportNumber(ctx, cmdvoice.ImportedNumber{Phone: phone, National: phone[2:], Country: "US",
			NumberType: voice.TypeLocal}, "sip", "strata bench voice")
		return err
	}
	return &voicebench.Server{URL: base, SIPAddr: sipListen, Token: s.AccessToken, Import: imp, DB: db,
		Describe: "strata serve (voice surface, production wiring, SIP adapter) on " + pg,
		Close:    closeServer}, nil
}

// freeLoopbackUDP is a UDP address of 127.0.0.1 free a moment ago.
func freeLoopbackUDP() (string, error) {
	c, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer c.Close()
	return "127.0.0.1:" + strconv.Itoa(c.LocalAddr().(*net.UDPAddr).Port), nil
}

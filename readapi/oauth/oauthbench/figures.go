package oauthbench

import (
	"bytes"
	"context"
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"errors"
	"fmt"
	"net/url"
	"runtime"
	"strings"
	"sync/atomic"

	ident "github.com/strata-platform/strata/domain/identity"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/storebench"
	"github.com/strata-platform/strata/readapi/identity/identitybench"
)

const (
	unitOps  = "ops/s"
	unitRate = "req/s"
	unitMs   = "ms"
)

// flows measures complete authorization-code flows with PKCE, each in a
// fresh browser that signs in (authorize, sign-in POST, 303, consent page,
// consent POST, 303 with the code, token request), against raw argon2id
// hashing on every CPU: a flow verifies one password, which dominates.
func (b *bench) flows(ctx context.Context) ([]storebench.Figure, error) {
	b.o.Logf("authorization-code flows ...")
	base, _, err := identitybench.Load(ctx, runtime.GOMAXPROCS(0), b.o.Duration, identitybench.Argon2Baseline)
	if err != nil {
		return nil, err
	}
	var next atomic.Int64
	rate, lat, err := identitybench.Load(ctx, flowBrowsers, b.o.Duration, func() error {
		_, err := b.flow(b.browser(), email(int(next.Add(1))))
		return err
	})
	if err != nil {
		return nil, err
	}
	b.o.Logf("  flows %.1f/s (p99 %.0f ms), raw argon2id %.1f hashes/s", rate, identitybench.Quantile(lat, 0.99), base)
	name := fmt.Sprintf("auth code + PKCE flow over HTTP, %d browsers", flowBrowsers)
	return []storebench.Figure{
		{Name: name, Unit: unitOps, Ours: rate, Baseline: base, Target: storebench.Target{Min: 40}, Samples: len(lat)},
		{Name: fmt.Sprintf("auth code + PKCE flow p99, %d browsers", flowBrowsers), Unit: unitMs, Ours: identitybench.Quantile(lat, 0.99), Samples: len(lat)},
	}, nil
}

// refreshes measures refresh with rotation over HTTP, each client rotating
// its own chain, against the floor of one rotation: a bare one-event append
// to the event store (Store.Append, each client on its own stream) plus one
// RSA-2048 signature of an access token's size, from as many clients.
func (b *bench) refreshes(ctx context.Context) ([]storebench.Figure, error) {
	c := b.browser() // signs in once; each further flow only consents
	chains := make([]string, refreshClients)
	var access string
	for i := range chains {
		t, err := b.flow(c, email(0))
		if err != nil {
			return nil, err
		}
		chains[i], access = t.RefreshToken, t.AccessToken
	}
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return nil, err
	}
	input := access[:strings.LastIndexByte(access, '.')]
	versions := make([]int64, refreshClients)
	run := random(6)
	b.o.Logf("refresh with rotation ...")
	floor, floorLat, err := identitybench.LoadWorkers(ctx, refreshClients, b.o.Duration, func(w int) error {
		h := sha256.Sum256([]byte(input))
		if _, err := rsa.SignPKCS1v15(rand.Reader, key, crypto.SHA256, h[:]); err != nil {
			return err
		}
		stream := eventstore.Stream{Type: floorStreamType, ID: fmt.Sprintf("oauth-floor-%s-%d", run, w)}
		if _, err := b.Store.Append(ctx, stream, versions[w], storebench.Tick{N: int(versions[w])}); err != nil {
			return err
		}
		versions[w]++
		return nil
	})
	if err != nil {
		return nil, err
	}
	rate, lat, err := identitybench.LoadWorkers(ctx, refreshClients, b.o.Duration, func(w int) error {
		t, err := b.token(url.Values{"grant_type": {ident.GrantRefreshToken}, "refresh_token": {chains[w]}}, false)
		if err != nil {
			return err
		}
		chains[w] = t.RefreshToken
		return nil
	})
	if err != nil {
		return nil, err
	}
	p99, floorP99 := identitybench.Quantile(lat, 0.99), identitybench.Quantile(floorLat, 0.99)
	b.o.Logf("  refresh %.0f/s (p99 %.1f ms), append + RSA sign %.0f/s (p99 %.1f ms)", rate, p99, floor, floorP99)
	return []storebench.Figure{
		{Name: fmt.Sprintf("refresh with rotation over HTTP, %d clients", refreshClients), Unit: unitRate, Ours: rate, Baseline: floor,
			Target: storebench.Target{Min: 400}, Samples: len(lat)},
		{Name: fmt.Sprintf("refresh with rotation p99, %d clients", refreshClients), Unit: unitMs, Ours: p99, Baseline: floorP99,
			Target: storebench.Target{Max: 100}, Samples: len(lat)},
	}, nil
}

// introspections measures POST /oauth/introspect of an access token over
// HTTP against a no-op POST route of the same surface sent the same form
// and credentials, then the service's introspection in process on every
// CPU against a bare RSA signature check of the same token.
func (b *bench) introspections(ctx context.Context) ([]storebench.Figure, error) {
	t, err := b.flow(b.browser(), email(1))
	if err != nil {
		return nil, err
	}
	pub, err := identitybench.SigningPublicKey(b.Svc)
	if err != nil {
		return nil, err
	}
	f := url.Values{"token": {t.AccessToken}}
	b.o.Logf("introspection ...")
	noop, noopLat, err := identitybench.Load(ctx, introspectClients, b.o.Duration, func() error {
		_, err := b.postForm("/bench/noop", f)
		return err
	})
	if err != nil {
		return nil, err
	}
	active := []byte(`"active":true`)
	rate, lat, err := identitybench.Load(ctx, introspectClients, b.o.Duration, func() error {
		raw, err := b.postForm("/oauth/introspect", f)
		if err == nil && !bytes.Contains(raw, active) {
			err = fmt.Errorf("introspection: %.300s", raw)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	bare, _, err := identitybench.Load(ctx, runtime.GOMAXPROCS(0), b.o.Duration, identitybench.RSABaseline(t.AccessToken, pub))
	if err != nil {
		return nil, err
	}
	inproc, inprocLat, err := identitybench.Load(ctx, runtime.GOMAXPROCS(0), b.o.Duration, func() error {
		if !b.Svc.Introspect(b.client, t.AccessToken, "").Active {
			return errors.New("introspection in process: inactive")
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	p99, noopP99 := identitybench.Quantile(lat, 0.99), identitybench.Quantile(noopLat, 0.99)
	b.o.Logf("  introspect %.0f req/s (p99 %.2f ms), no-op route %.0f req/s (p99 %.2f ms); in process %.0f/s, bare RSA verify %.0f/s",
		rate, p99, noop, noopP99, inproc, bare)
	return []storebench.Figure{
		{Name: fmt.Sprintf("introspection over HTTP, %d clients", introspectClients), Unit: unitRate, Ours: rate, Baseline: noop,
			Target: storebench.Target{Min: 5000}, Samples: len(lat)},
		{Name: fmt.Sprintf("introspection p99, %d clients", introspectClients), Unit: unitMs, Ours: p99, Baseline: noopP99, Samples: len(lat)},
		{Name: "introspection in process", Unit: unitRate, Ours: inproc, Baseline: bare, Samples: len(inprocLat)},
	}, nil
}

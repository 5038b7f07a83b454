package identitybench

import (
	"context"
	"crypto/rsa"
	"fmt"
	"net/http"
	"runtime"
	"sync/atomic"

	cmd "github.com/strata-platform/strata/commands/identity"
	"github.com/strata-platform/strata/eventstore/storebench"
)

const (
	unitRate = "req/s"
	unitMs   = "ms"
)

// logins measures password logins over HTTP (4 clients) against raw
// argon2id hashing on every CPU.
func (b *bench) logins(ctx context.Context) ([]storebench.Figure, error) {
	const users = 8
	for i := range users {
		if _, err := b.Svc.Register(ctx, cmd.Register{Email: fmt.Sprintf("bench%d@example.com", i), Password: "Corr3ct-horse", FullName: "Bench"}); err != nil {
			return nil, err
		}
	}
	b.o.Logf("logins ...")
	base, _, err := Load(ctx, runtime.GOMAXPROCS(0), b.o.Duration, Argon2Baseline)
	if err != nil {
		return nil, err
	}
	var next atomic.Int64
	rate, lat, err := Load(ctx, 4, b.o.Duration, func() error {
		i := int(next.Add(1) % users)
		return b.Post("/api/v1/auth/login", fmt.Sprintf(`{"email":"bench%d@example.com","password":"Corr3ct-horse"}`, i), http.StatusOK)
	})
	if err != nil {
		return nil, err
	}
	b.o.Logf("  logins %.0f/s (p99 %.1f ms), raw argon2id %.0f hashes/s", rate, Quantile(lat, 0.99), base)
	return []storebench.Figure{
		{Name: "password login over HTTP, 4 clients", Unit: unitRate, Ours: rate, Baseline: base, Target: storebench.Target{Min: 60}, Samples: len(lat)},
		{Name: "password login p99, 4 clients", Unit: unitMs, Ours: Quantile(lat, 0.99), Target: storebench.Target{Max: 250}, Samples: len(lat)},
	}, nil
}

// verifications measures POST /api/v1/public/api-keys/verify over HTTP (16
// clients) against a no-op POST route of the same surface.
func (b *bench) verifications(ctx context.Context) ([]storebench.Figure, error) {
	sess, err := b.Svc.Login(ctx, "bench0@example.com", "Corr3ct-horse", "bench")
	if err != nil {
		return nil, err
	}
	key, err := b.Svc.IssueKey(ctx, cmd.IssueKey{UserID: sess.User.ID, Name: "bench"})
	if err != nil {
		return nil, err
	}
	b.o.Logf("API key verification ...")
	const clients = 16
	base, baseLat, err := Load(ctx, clients, b.o.Duration, func() error { return b.Post("/bench/noop", "", http.StatusOK) })
	if err != nil {
		return nil, err
	}
	rate, lat, err := Load(ctx, clients, b.o.Duration, func() error {
		return b.Post("/api/v1/public/api-keys/verify", "", http.StatusOK, "X-API-Key", key.Secret)
	})
	if err != nil {
		return nil, err
	}
	b.o.Logf("  verify %.0f req/s (p99 %.2f ms), no-op route %.0f req/s (p99 %.2f ms)", rate, Quantile(lat, 0.99), base, Quantile(baseLat, 0.99))
	return []storebench.Figure{
		{Name: "API key verify over HTTP, 16 clients", Unit: unitRate, Ours: rate, Baseline: base, Target: storebench.Target{Min: 5000}, Samples: len(lat)},
		{Name: "API key verify p99, 16 clients", Unit: unitMs, Ours: Quantile(lat, 0.99), Baseline: Quantile(baseLat, 0.99), Target: storebench.Target{Max: 5}, Samples: len(lat)},
	}, nil
}

// bearer measures the middleware's JWT authentication in process (signature,
// revocation, account and security-stamp checks) on every CPU, against a
// bare RSA signature check of the same token.
func (b *bench) bearer(ctx context.Context) ([]storebench.Figure, error) {
	sess, err := b.Svc.Login(ctx, "bench1@example.com", "Corr3ct-horse", "bench")
	if err != nil {
		return nil, err
	}
	pub, err := SigningPublicKey(b.Svc)
	if err != nil {
		return nil, err
	}
	b.o.Logf("bearer authentication ...")
	base, _, err := Load(ctx, runtime.GOMAXPROCS(0), b.o.Duration, RSABaseline(sess.AccessToken, pub))
	if err != nil {
		return nil, err
	}
	req, _ := http.NewRequest(http.MethodGet, "/api/v1/auth/me", nil)
	req.Header.Set("Authorization", "Bearer "+sess.AccessToken)
	rate, _, err := Load(ctx, runtime.GOMAXPROCS(0), b.o.Duration, func() error {
		p, err := b.Auth.Authenticate(req)
		if err == nil && p.UserID != sess.User.ID {
			err = fmt.Errorf("authenticated %q, want %q", p.UserID, sess.User.ID)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	b.o.Logf("  bearer %.0f/s, bare RSA verify %.0f/s", rate, base)
	return []storebench.Figure{{Name: "bearer JWT authentication, in process", Unit: unitRate, Ours: rate, Baseline: base,
		Target: storebench.Target{Min: 20000}, Samples: int(rate * b.o.Duration.Seconds())}}, nil
}

// SigningPublicKey returns the public key that signs the service's tokens
// now (the newest in its JWKS), for the bare RSA baselines.
func SigningPublicKey(svc *cmd.Service) (*rsa.PublicKey, error) {
	set, err := svc.Tokens().JWKS()
	if err != nil || len(set.Keys) == 0 {
		return nil, fmt.Errorf("JWKS: %v", err)
	}
	pub, ok := set.Keys[0].Key.(*rsa.PublicKey)
	if !ok {
		return nil, fmt.Errorf("JWKS key is %T", set.Keys[0].Key)
	}
	return pub, nil
}

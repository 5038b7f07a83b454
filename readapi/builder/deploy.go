package builder

import (
	"net/http"

	"github.com/gorilla/mux"

	cmd "github.com/strata-platform/strata/commands/builder"
	"github.com/strata-platform/strata/commands/builder/runtime"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/readapi/httpx"
)

// CodeDeployUnhealthy is the rule of a redeploy whose new version failed
// its health checks (the previous version kept serving).
const CodeDeployUnhealthy = "deploy_unhealthy"

// DeployRoutes adds POST /api/build/redeploy (session) to the builder.
func DeployRoutes(r *mux.Router, f *Founders, d *cmd.Deploys) {
	r.Handle("/api/build/redeploy", f.Require(redeploy(d))).Methods(http.MethodPost)
}

type redeployRequest struct {
	CompanyID string `json:"companyId"`
}

type probeView struct {
	At        string  `json:"at"`
	Status    int     `json:"status"`
	Error     *string `json:"error"`
	LatencyMS float64 `json:"latency_ms"`
}

// redeploy serves POST /api/build/redeploy {companyId}: the company's
// current version started with its current secrets beside the running one,
// switched to only after consecutive healthy probes. 200 {outcome:
// "healthy", ...} when it took the traffic; otherwise 502
// deploy_unhealthy with the same members (switched false, reason, the
// probes and the log tail), the previous version still serving.
func redeploy(d *cmd.Deploys) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req redeployRequest
		if err := httpx.DecodeJSON(r, &req); err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		s, _ := Founder(r.Context())
		res, err := d.Redeploy(r.Context(), s.UserID, req.CompanyID)
		if err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		body := resultView(req.CompanyID, res)
		if res.Switched {
			_ = httpx.WriteJSON(w, http.StatusOK, body)
			return
		}
		httpx.WriteError(w, r, httpx.WithMembers(&kernel.Error{Kind: kernel.KindBadGateway, Field: "companyId", Rule: CodeDeployUnhealthy,
			Message: "the new version did not pass its health checks, so the previous one keeps serving: " + res.Reason}, body))
	})
}

func resultView(companyID string, res runtime.Result) map[string]any {
	probes := make([]probeView, len(res.Probes))
	for i, p := range res.Probes {
		probes[i] = probeView{At: p.At.UTC().Format("2006-01-02T15:04:05.000Z07:00"), Status: p.Status, LatencyMS: float64(p.Latency.Microseconds()) / 1000}
		if p.Err != "" {
			e := p.Err
			probes[i].Error = &e
		}
	}
	outcome := "healthy"
	if !res.Switched {
		outcome = "rolled_back"
	}
	out := map[string]any{"companyId": companyID, "outcome": outcome, "switched": res.Switched, "versionId": res.Version,
		"previousVersionId": optional(res.Previous), "probes": probes, "durationMs": res.Duration.Milliseconds()}
	if !res.Switched {
		out["reason"], out["logTail"] = res.Reason, res.LogTail
	}
	return out
}

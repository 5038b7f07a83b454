package judging

import (
	"math"
	"testing"
)

const cbtTol = 1e-9

// TestVoteFromPriors works one vote from the priors by hand, with fractions:
// alpha=10, beta=1, both items mu=0, sigma_sq=1, so e^mu = 1 for both.
//
// Judge:  c1 = 1/(1+1) + 0.5*(1+1)*(1*1*(1-1))/(1+1)^3 = 1/2, c2 = 1/2
//
//	c      = (1/2*10 + 1/2*1)/11                  = 1/2
//	E[t]   = (1/2*11*10 + 1/2*10*1)/(1/2*12*11)   = 60/66  = 10/11
//	E[t^2] = (1/2*12*11*10 + 1/2*11*10)/(1/2*13*12*11) = 715/858 = 5/6
//	var    = 5/6 - (10/11)^2 = (605-600)/726      = 5/726
//	alpha' = (10/11-5/6)*(10/11)/var = (5/66)(10/11)/(5/726) = 10
//	beta'  = (10/11-5/6)*(1/11)/var  = (5/66)(1/11)/(5/726)  = 1
//
// Means:  mult = 10*1/(10*1+1*1) - 1/(1+1) = 10/11 - 1/2 = 9/22
//
//	mu_winner' = 0 + 1*9/22 = 0.40909..., mu_loser' = -9/22
//
// Variances: mult = 10*1*1*1/11^2 - 1*1/2^2 = 10/121 - 1/4 = -81/484
//
//	sigma_sq' = 1 * max(1 - 81/484, 0.0001) = 403/484 = 0.83264...
func TestVoteFromPriors(t *testing.T) {
	j, w, l := Vote(NewAnnotator("judge"), NewItem("w"), NewItem("l"))
	checks := []struct {
		name      string
		got, want float64
	}{
		{"alpha", j.Alpha, 10},
		{"beta", j.Beta, 1},
		{"mu winner", w.Mu, 9.0 / 22},
		{"sigma_sq winner", w.SigmaSq, 403.0 / 484},
		{"mu loser", l.Mu, -9.0 / 22},
		{"sigma_sq loser", l.SigmaSq, 403.0 / 484},
	}
	for _, c := range checks {
		if !near(c.got, c.want, cbtTol) {
			t.Errorf("%s = %.17g, want %.17g", c.name, c.got, c.want)
		}
	}
	if j.ID != "judge" || w.ID != "w" || l.ID != "l" {
		t.Errorf("IDs changed: %q %q %q", j.ID, w.ID, l.ID)
	}
}

// handVote recomputes one Crowd-BT vote step by step in the logistic form
// (p = sigmoid(mu_w - mu_l) instead of ratios of exponentials), so it shares
// no expression with the implementation.
func handVote(alpha, beta, muW, sW, muL, sL float64) (a1, b1, muW1, sW1, muL1, sL1, c float64) {
	sigmoid := func(x float64) float64 { return 1 / (1 + math.Exp(-x)) }
	// Bradley-Terry probability that the winner beats the loser.
	p := sigmoid(muW - muL)
	// Second-order correction for the items' uncertainty:
	// e^w e^l (e^l - e^w)/(e^w+e^l)^3 = p(1-p)(1-2p).
	c1 := p + 0.5*(sW+sL)*p*(1-p)*(1-2*p)
	c2 := 1 - c1
	c = (c1*alpha + c2*beta) / (alpha + beta)
	// First two moments of the judge's reliability after the vote.
	m1 := (c1*(alpha+1)*alpha + c2*alpha*beta) / (c * (alpha + beta + 1) * (alpha + beta))
	m2 := (c1*(alpha+2)*(alpha+1)*alpha + c2*(alpha+1)*alpha*beta) / (c * (alpha + beta + 2) * (alpha + beta + 1) * (alpha + beta))
	v := m2 - m1*m1
	a1 = (m1 - m2) * m1 / v
	b1 = (m1 - m2) * (1 - m1) / v
	// Judge-weighted probability: alpha e^w/(alpha e^w + beta e^l) = sigmoid(w - l + ln(alpha/beta)).
	q := sigmoid(muW - muL + math.Log(alpha/beta))
	muW1 = muW + sW*(q-p)
	muL1 = muL - sL*(q-p)
	// alpha e^w beta e^l/(alpha e^w + beta e^l)^2 = q(1-q); same for p.
	m := q*(1-q) - p*(1-p)
	sW1 = sW * math.Max(1+sW*m, Kappa)
	sL1 = sL * math.Max(1+sL*m, Kappa)
	return
}

func TestVoteMatchesHandComputation(t *testing.T) {
	tests := []struct {
		name                          string
		alpha, beta, muW, sW, muL, sL float64
	}{
		// p = sigmoid(0.5) = 0.6224593312018546; c1 = p + 0.8 p(1-p)(1-2p) = 0.57641...;
		// q = sigmoid(0.5 + ln 4) = 0.86833...; mu_w' = 0.3 + 0.7(q-p) = 0.47211...
		{"typical", 8, 2, 0.3, 0.7, -0.2, 0.9},
		{"upset", 10, 1, -1.5, 0.4, 1.2, 0.5},
		{"unreliable judge", 2, 3, 0, 1, 0, 1},
		// sigma_sq 10: 1 + 10(10/121 - 1/4) < 0, so the factor is floored at Kappa
		{"kappa floor", 10, 1, 0, 10, 0, 10},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a1, b1, muW1, sW1, muL1, sL1, _ := handVote(tc.alpha, tc.beta, tc.muW, tc.sW, tc.muL, tc.sL)
			j, w, l := Vote(Annotator{"j", tc.alpha, tc.beta}, Item{"w", tc.muW, tc.sW}, Item{"l", tc.muL, tc.sL})
			got := []float64{j.Alpha, j.Beta, w.Mu, w.SigmaSq, l.Mu, l.SigmaSq}
			want := []float64{a1, b1, muW1, sW1, muL1, sL1}
			for i := range got {
				if !near(got[i], want[i], cbtTol*math.Max(1, math.Abs(want[i]))) {
					t.Errorf("field %d = %.17g, want %.17g", i, got[i], want[i])
				}
			}
		})
	}
	// The Kappa floor: 10 * 0.0001.
	_, w, _ := Vote(NewAnnotator("j"), Item{"w", 0, 10}, Item{"l", 0, 10})
	if !near(w.SigmaSq, 10*Kappa, 1e-15) {
		t.Errorf("floored sigma_sq = %v, want %v", w.SigmaSq, 10*Kappa)
	}
}

// TestVoteProperties checks the direction of every update. With
// d = mu_w - mu_l, L = ln(alpha/beta), p = sigmoid(d), q = sigmoid(d+L):
//   - the means move by ±sigma_sq*(q-p), so the winner rises and the loser
//     falls exactly when the judge is more reliable than not (alpha > beta),
//     and move the other way for a judge with alpha < beta;
//   - the variances scale by 1 + sigma_sq*(q(1-q) - p(1-p)), which is below 1
//     exactly when |d+L| > |d|, i.e. L(2d+L) > 0: for a reliable judge
//     (L > 0) a vote that does not upset the current order by more than L/2
//     shrinks both variances, and a bigger upset grows them, as in Gavel.
func TestVoteProperties(t *testing.T) {
	items := []Item{{"a", 0, 1}, {"b", 1.3, 0.5}, {"c", -0.7, 0.2}, {"d", 2, 0.05}, {"e", 0.4, 3}}
	judges := []Annotator{NewAnnotator("p"), {"q", 3, 2}, {"r", 20, 1}, {"s", 1, 4}}
	shrunk, grown := 0, 0
	for _, j := range judges {
		logOdds := math.Log(j.Alpha / j.Beta)
		for _, a := range items {
			for _, b := range items {
				if a.ID == b.ID {
					continue
				}
				_, w, l := Vote(j, a, b)
				if rises := w.Mu > a.Mu && l.Mu < b.Mu; rises != (j.Alpha > j.Beta) {
					t.Errorf("judge %s, %s beats %s: mu %v->%v, %v->%v", j.ID, a.ID, b.ID, a.Mu, w.Mu, b.Mu, l.Mu)
				}
				if w.SigmaSq <= 0 || l.SigmaSq <= 0 {
					t.Errorf("judge %s, %s beats %s: non-positive sigma_sq", j.ID, a.ID, b.ID)
				}
				side := logOdds * (2*(a.Mu-b.Mu) + logOdds)
				switch {
				case side > 1e-9:
					shrunk++
					if !(w.SigmaSq < a.SigmaSq) || !(l.SigmaSq < b.SigmaSq) {
						t.Errorf("judge %s, %s beats %s: sigma_sq %v->%v, %v->%v, want both smaller", j.ID, a.ID, b.ID, a.SigmaSq, w.SigmaSq, b.SigmaSq, l.SigmaSq)
					}
				case side < -1e-9:
					grown++
					if !(w.SigmaSq > a.SigmaSq) || !(l.SigmaSq > b.SigmaSq) {
						t.Errorf("judge %s, upset %s beats %s: sigma_sq %v->%v, %v->%v, want both larger", j.ID, a.ID, b.ID, a.SigmaSq, w.SigmaSq, b.SigmaSq, l.SigmaSq)
					}
				}
			}
		}
	}
	if shrunk == 0 || grown == 0 {
		t.Fatalf("cases: %d shrinking, %d growing; want both", shrunk, grown)
	}
}

// TestVoteAgainstEstablishedOrder: strong beats weak with high confidence;
// a judge who agrees keeps a higher reliability mean than one who disagrees.
func TestVoteAgainstEstablishedOrder(t *testing.T) {
	strong, weak := Item{"strong", 2, 0.1}, Item{"weak", -2, 0.1}
	mean := func(j Annotator) float64 { return j.Alpha / (j.Alpha + j.Beta) }
	for _, j := range []Annotator{NewAnnotator("j"), {"k", 4, 4}, {"m", 50, 3}} {
		agree, _, _ := Vote(j, strong, weak)
		disagree, _, _ := Vote(j, weak, strong)
		if !(mean(disagree) < mean(agree)) || !(mean(disagree) < mean(j)) {
			t.Errorf("judge %v: mean after agreeing %v, after disagreeing %v, before %v", j, mean(agree), mean(disagree), mean(j))
		}
	}
}

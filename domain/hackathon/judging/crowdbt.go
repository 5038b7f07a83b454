package judging

import (
	"math"
	"strings"
)

// Crowd-BT parameters, the values Gavel (HackMIT's pairwise judging system,
// gavel/crowd_bt.py) uses, chosen there after the experiments of Chen et al.,
// "Pairwise Ranking Aggregation in a Crowdsourced Setting" (WSDM 2013).
const (
	Gamma        = 0.1    // weight of the judge's information gain against the items'
	Lambda       = 1.0    // regularisation parameter; declared by Gavel, which never uses it
	Kappa        = 0.0001 // floor of a variance's shrink factor, so it stays positive
	MuPrior      = 0.0    // prior mean of an item's quality
	SigmaSqPrior = 1.0    // prior variance of an item's quality
	AlphaPrior   = 10.0   // prior alpha of a judge's reliability Beta(alpha, beta)
	BetaPrior    = 1.0    // prior beta of a judge's reliability
)

// Item is a submission's quality estimate in Crowd-BT: a normal distribution
// with mean Mu and variance SigmaSq.
type Item struct {
	ID      string
	Mu      float64
	SigmaSq float64
}

// Annotator is a judge's reliability in Crowd-BT: Beta(Alpha, Beta), whose
// mean Alpha/(Alpha+Beta) is the probability the judge votes for the truly
// better item.
type Annotator struct {
	ID    string
	Alpha float64
	Beta  float64
}

// NewItem returns an item with the prior quality (MuPrior, SigmaSqPrior).
func NewItem(id string) Item {
	return Item{ID: id, Mu: MuPrior, SigmaSq: SigmaSqPrior}
}

// NewAnnotator returns a judge with the prior reliability (AlphaPrior,
// BetaPrior).
func NewAnnotator(id string) Annotator {
	return Annotator{ID: id, Alpha: AlphaPrior, Beta: BetaPrior}
}

// Vote applies one comparison in which judge j preferred winner over loser and
// returns the updated judge, winner and loser (IDs unchanged). All three
// updates are computed from the values before the vote, as in Gavel. With
// d = winner.Mu - loser.Mu and L = ln(Alpha/Beta): the winner's Mu rises and
// the loser's falls when Alpha > Beta (the reverse for a judge with
// Alpha < Beta); both variances shrink when L(2d+L) > 0 — for a reliable
// judge, any vote that is not an upset by more than L/2 — and grow when it is
// negative; a variance never falls below Kappa times its old value. From the priors the judge's
// (Alpha, Beta) stays (10, 1); a vote against a confident order lowers the
// judge's mean reliability Alpha/(Alpha+Beta).
func Vote(j Annotator, winner, loser Item) (Annotator, Item, Item) {
	j.Alpha, j.Beta, winner.Mu, winner.SigmaSq, loser.Mu, loser.SigmaSq =
		update(j.Alpha, j.Beta, winner.Mu, winner.SigmaSq, loser.Mu, loser.SigmaSq)
	return j, winner, loser
}

// ExpectedInformationGain returns the expected information gain of asking
// judge j to compare a with b: for each outcome, weighted by its probability
// under the model, the KL divergence of the updated item estimates from the
// current ones plus Gamma times that of the updated judge reliability.
func ExpectedInformationGain(j Annotator, a, b Item) float64 {
	return expectedInformationGain(j.Alpha, j.Beta, a.Mu, a.SigmaSq, b.Mu, b.SigmaSq)
}

// Next chooses the item judge j should look at after current. Candidates are
// the items the judge may still see (the caller filters out those already
// seen); an item with current's ID is skipped. With a current item (non-nil,
// non-empty ID) it returns the candidate maximising the expected information
// gain of comparing current with it; without one, the candidate with the
// highest SigmaSq. Exact ties go to the smallest ID and NaN gains lose to
// every number, so the choice does not depend on the order of candidates
// (given distinct IDs). It returns false when no candidate remains. Unlike
// Gavel it has no epsilon-greedy random step: the caller adds one if wanted.
func Next(j Annotator, current *Item, candidates []Item) (Item, bool) {
	hasCurrent := current != nil && current.ID != ""
	var best Item
	bestScore, found := 0.0, false
	for _, c := range candidates {
		if hasCurrent && c.ID == current.ID {
			continue
		}
		score := c.SigmaSq
		if hasCurrent {
			score = ExpectedInformationGain(j, *current, c)
		}
		if math.IsNaN(score) {
			score = math.Inf(-1)
		}
		if !found || score > bestScore || (score == bestScore && strings.Compare(c.ID, best.ID) < 0) {
			best, bestScore, found = c, score, true
		}
	}
	return best, found
}

// update returns the new (alpha, beta, muWinner, sigmaSqWinner, muLoser,
// sigmaSqLoser) after a vote for the winner, each from the old values.
func update(alpha, beta, muW, sW, muL, sL float64) (float64, float64, float64, float64, float64, float64) {
	alpha1, beta1, _ := updatedAnnotator(alpha, beta, muW, sW, muL, sL)
	muW1, muL1 := updatedMus(alpha, beta, muW, sW, muL, sL)
	sW1, sL1 := updatedSigmaSqs(alpha, beta, muW, sW, muL, sL)
	return alpha1, beta1, muW1, sW1, muL1, sL1
}

// expectedInformationGain is the Crowd-BT expected information gain of a
// comparison of items a and b by a judge with reliability (alpha, beta).
func expectedInformationGain(alpha, beta, muA, sA, muB, sB float64) float64 {
	// Outcome 1: a wins, with probability c.
	alpha1, beta1, c := updatedAnnotator(alpha, beta, muA, sA, muB, sB)
	muA1, muB1 := updatedMus(alpha, beta, muA, sA, muB, sB)
	sA1, sB1 := updatedSigmaSqs(alpha, beta, muA, sA, muB, sB)
	// Outcome 2: b wins.
	alpha2, beta2, _ := updatedAnnotator(alpha, beta, muB, sB, muA, sA)
	muB2, muA2 := updatedMus(alpha, beta, muB, sB, muA, sA)
	sB2, sA2 := updatedSigmaSqs(alpha, beta, muB, sB, muA, sA)

	gain1 := divergenceGaussian(muA1, sA1, muA, sA) +
		divergenceGaussian(muB1, sB1, muB, sB) +
		Gamma*divergenceBeta(alpha1, beta1, alpha, beta)
	gain2 := divergenceGaussian(muA2, sA2, muA, sA) +
		divergenceGaussian(muB2, sB2, muB, sB) +
		Gamma*divergenceBeta(alpha2, beta2, alpha, beta)
	return c*gain1 + (1-c)*gain2
}

// updatedMus returns the winner's and loser's new means: each moves by its
// variance times the difference between the judge-weighted and the plain
// Bradley-Terry probability that the winner wins.
func updatedMus(alpha, beta, muW, sW, muL, sL float64) (float64, float64) {
	ew, el := math.Exp(muW), math.Exp(muL)
	mult := alpha*ew/(alpha*ew+beta*el) - ew/(ew+el)
	return muW + sW*mult, muL - sL*mult
}

// updatedSigmaSqs returns the winner's and loser's new variances, each
// shrunk by the factor 1+sigmaSq*mult floored at Kappa.
func updatedSigmaSqs(alpha, beta, muW, sW, muL, sL float64) (float64, float64) {
	ew, el := math.Exp(muW), math.Exp(muL)
	weighted := alpha*ew + beta*el
	plain := ew + el
	mult := alpha*ew*beta*el/(weighted*weighted) - ew*el/(plain*plain)
	return sW * math.Max(1+sW*mult, Kappa), sL * math.Max(1+sL*mult, Kappa)
}

// updatedAnnotator returns the judge's new (alpha, beta), moment-matched to
// the posterior after the vote, and c, the probability under the current
// model that the judge votes for the winner.
func updatedAnnotator(alpha, beta, muW, sW, muL, sL float64) (float64, float64, float64) {
	ew, el := math.Exp(muW), math.Exp(muL)
	sum := ew + el
	c1 := ew/sum + 0.5*(sW+sL)*(ew*el*(el-ew))/(sum*sum*sum)
	c2 := 1 - c1
	ab := alpha + beta
	c := (c1*alpha + c2*beta) / ab
	expt := (c1*(alpha+1)*alpha + c2*alpha*beta) / (c * (ab + 1) * ab)
	exptSq := (c1*(alpha+2)*(alpha+1)*alpha + c2*(alpha+1)*alpha*beta) /
		(c * (ab + 2) * (ab + 1) * ab)
	variance := exptSq - expt*expt
	return (expt - exptSq) * expt / variance, (expt - exptSq) * (1 - expt) / variance, c
}

// divergenceGaussian is KL(N(mu1, s1) || N(mu2, s2)) for variances s1, s2.
func divergenceGaussian(mu1, s1, mu2, s2 float64) float64 {
	ratio := s1 / s2
	d := mu1 - mu2
	return d*d/(2*s2) + (ratio-1-math.Log(ratio))/2
}

// divergenceBeta is KL(Beta(alpha1, beta1) || Beta(alpha2, beta2)).
func divergenceBeta(alpha1, beta1, alpha2, beta2 float64) float64 {
	return betaln(alpha2, beta2) - betaln(alpha1, beta1) +
		(alpha1-alpha2)*digamma(alpha1) +
		(beta1-beta2)*digamma(beta1) +
		(alpha2-alpha1+beta2-beta1)*digamma(alpha1+beta1)
}

// betaln is ln|B(a, b)| = lnΓ(a) + lnΓ(b) - lnΓ(a+b).
func betaln(a, b float64) float64 {
	la, _ := math.Lgamma(a)
	lb, _ := math.Lgamma(b)
	lab, _ := math.Lgamma(a + b)
	return la + lb - lab
}

package captable

import (
	"time"

	"github.com/strata-platform/strata/domain/captable/num"
)

// Security is one grant's part of a holder's fully diluted holding on a
// day: stock outstanding (as converted), awards outstanding, and shares
// already issued by exercise.
type Security struct {
	GrantID        string  `json:"grantId"`
	GrantNumber    string  `json:"grantNumber"`
	GrantType      string  `json:"grantType"`
	ShareClassID   string  `json:"shareClassId"`
	ShareClassName string  `json:"shareClassName"`
	Status         string  `json:"status"`
	Outstanding    num.Num `json:"outstanding"`
	Exercised      num.Num `json:"exercisedShares"`
	Shares         num.Num `json:"shares"` // fully diluted contribution
}

// Securities lists every grant that contributes to a holder's fully
// diluted holding on day, by stakeholder id, in grant order. Their Shares
// sum to the holder's Shares in Summary(day).
func (c *Company) Securities(day time.Time) map[string][]Security {
	out := map[string][]Security{}
	for _, id := range c.GrantOrder {
		g := c.Grants[id]
		cl := c.Classes[g.ShareClassID]
		if cl == nil {
			continue
		}
		s := Security{GrantID: g.ID, GrantNumber: g.GrantNumber, GrantType: g.GrantType, ShareClassID: cl.ID,
			ShareClassName: cl.Name, Status: g.Status(), Exercised: g.Exercised}
		if IsStock(g.GrantType) {
			s.Outstanding = g.Outstanding()
			s.Shares = s.Outstanding.Mul(cl.ratio())
		} else {
			s.Outstanding = g.Outstanding().Sub(g.LapsedAt(day))
			s.Shares = s.Outstanding
			if !g.LapsedAt(day).IsZero() {
				s.Status = StatusExpired
			}
		}
		s.Shares = s.Shares.Add(g.Exercised)
		if s.Shares.IsZero() {
			continue
		}
		out[g.StakeholderID] = append(out[g.StakeholderID], s)
	}
	return out
}

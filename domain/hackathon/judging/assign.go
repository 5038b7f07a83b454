package judging

import (
	"slices"
)

// DefaultK is the number of judges per submission Assign uses when
// AssignInput.K is zero or negative.
const DefaultK = 3

// AssignInput is what Assign distributes: every submission gets up to K
// judges from Judges.
type AssignInput struct {
	Submissions []string // submission ids; duplicates are ignored
	Judges      []string // ids of judges who may take new assignments; duplicates are ignored
	K           int      // judges per submission; DefaultK when <= 0
	// Conflicts maps submission -> judge -> true when the judge may not judge
	// the submission (member or mentor of its team, or recused).
	Conflicts map[string]map[string]bool
	// Fixed maps submission -> judges already bound to it (they scored it).
	// They are kept even when conflicted or not in Judges, count toward the
	// submission's K and toward the judge's load, and are never moved.
	// Entries for submissions not in Submissions are ignored.
	Fixed map[string][]string
}

// Assignment is the panel of one submission; JudgeIDs is sorted by id.
type Assignment struct {
	SubmissionID string
	JudgeIDs     []string
}

// Flags of one (submission, judge) cell of the assignment grid.
const (
	cellClosed uint8 = 1 << iota // conflicted, or the judge is not in Judges
	cellOn                       // the judge is on the panel
	cellFixed                    // the judge was bound by Fixed
)

// assigner is the working state of one Assign call.
type assigner struct {
	nJ      int
	avail   []bool  // judge is in Judges
	grid    []uint8 // submission*nJ + judge -> cell flags
	panels  [][]int // submission -> judges on its panel
	load    []int   // judge -> panels it sits on
	co      []int32 // judge*nJ + judge -> panels the two share
	movable [][]int // judge -> submissions where it holds a non-fixed seat
}

// Assign returns one Assignment per distinct submission, sorted by
// submission id. Guarantees, for equal input the same output:
//   - every panel keeps its Fixed judges and has no duplicate judge;
//   - every other judge on a panel is in Judges and not conflicted;
//   - a panel has max(F, min(K, F+E)) judges, where F is the number of its
//     distinct Fixed judges and E the number of eligible judges (in Judges,
//     not conflicted, not Fixed on it);
//   - balance: no judge a has load >= load(b)+2 while one of a's non-fixed
//     seats could go to b (b in Judges, not conflicted, not on that panel).
//
// Submissions are filled most constrained first (fewest eligible judges, then
// id), each seat going to the least-loaded eligible judge, ties broken by the
// fewest panels shared with the judges already seated (panels overlap widely,
// so the judge graph stays connected and per-judge normalisation comparable),
// then by judge id. An improvement pass then moves single seats from a judge
// to one with a load at least two lower until none can move; each move
// lowers the sum of squared loads, so the pass ends.
func Assign(in AssignInput) []Assignment {
	k := in.K
	if k <= 0 {
		k = DefaultK
	}
	subs := sortedUnique(in.Submissions)
	judges, avail := judgeUniverse(subs, in)
	idx := make(map[string]int, len(judges))
	for i, j := range judges {
		idx[j] = i
	}
	nS, nJ := len(subs), len(judges)
	a := &assigner{
		nJ:      nJ,
		avail:   avail,
		grid:    make([]uint8, nS*nJ),
		panels:  make([][]int, nS),
		load:    make([]int, nJ),
		co:      make([]int32, nJ*nJ),
		movable: make([][]int, nJ),
	}
	for s, sid := range subs {
		row := a.grid[s*nJ : (s+1)*nJ]
		for j := range nJ {
			if !avail[j] {
				row[j] = cellClosed
			}
		}
		for jid, c := range in.Conflicts[sid] {
			if j, ok := idx[jid]; ok && c {
				row[j] |= cellClosed
			}
		}
		for _, jid := range in.Fixed[sid] {
			j := idx[jid]
			if row[j]&cellOn == 0 {
				row[j] |= cellOn | cellFixed
				a.seat(s, j)
			}
		}
	}

	// Seats still to fill and eligible judges per submission.
	need := make([]int, nS)
	elig := make([]int, nS)
	for s := range nS {
		for _, c := range a.grid[s*nJ : (s+1)*nJ] {
			if c&(cellClosed|cellOn) == 0 {
				elig[s]++
			}
		}
		need[s] = min(k-len(a.panels[s]), elig[s])
	}
	order := make([]int, nS)
	for s := range order {
		order[s] = s
	}
	// subs is sorted, so the index breaks ties by submission id.
	slices.SortStableFunc(order, func(x, y int) int { return elig[x] - elig[y] })
	for _, s := range order {
		for range need[s] {
			a.pick(s)
		}
	}
	a.rebalance()

	out := make([]Assignment, nS)
	for s, sid := range subs {
		p := slices.Clone(a.panels[s])
		slices.Sort(p) // judges is sorted, so index order is id order
		ids := make([]string, len(p))
		for i, j := range p {
			ids[i] = judges[j]
		}
		out[s] = Assignment{SubmissionID: sid, JudgeIDs: ids}
	}
	return out
}

// judgeUniverse returns the sorted ids of every judge Assign deals with (the
// Judges plus Fixed judges of listed submissions) and which of them are in
// Judges and so may take new seats.
func judgeUniverse(subs []string, in AssignInput) ([]string, []bool) {
	all := slices.Clone(in.Judges)
	for _, sid := range subs {
		all = append(all, in.Fixed[sid]...)
	}
	judges := sortedUnique(all)
	listed := make(map[string]bool, len(in.Judges))
	for _, j := range in.Judges {
		listed[j] = true
	}
	avail := make([]bool, len(judges))
	for i, j := range judges {
		avail[i] = listed[j]
	}
	return judges, avail
}

// seat puts judge j on the panel of s (the grid flags are the caller's) and
// counts the panels j now shares with the judges already there.
func (a *assigner) seat(s, j int) {
	for _, p := range a.panels[s] {
		a.co[j*a.nJ+p]++
		a.co[p*a.nJ+j]++
	}
	a.panels[s] = append(a.panels[s], j)
	a.load[j]++
}

// pick fills one seat of s with the least-loaded eligible judge, ties broken
// by fewest shared panels with the judges seated on s, then by judge id. The
// caller guarantees an eligible judge exists.
func (a *assigner) pick(s int) {
	row := a.grid[s*a.nJ : (s+1)*a.nJ]
	best, bestLoad, bestCo := -1, 0, int32(0)
	for j, c := range row {
		if c&(cellClosed|cellOn) != 0 {
			continue
		}
		l := a.load[j]
		if best >= 0 && l > bestLoad {
			continue
		}
		var co int32
		for _, p := range a.panels[s] {
			co += a.co[j*a.nJ+p]
		}
		if best < 0 || l < bestLoad || co < bestCo {
			best, bestLoad, bestCo = j, l, co
		}
	}
	row[best] |= cellOn
	a.seat(s, best)
	a.movable[best] = append(a.movable[best], s)
}

// rebalance moves non-fixed seats from a judge to an eligible judge whose
// load is at least two lower until no such move exists. Every move lowers the
// sum of squared loads by at least 2, so it terminates; a pass that moves
// nothing has checked every judge against the least-loaded eligible judge of
// each of its movable seats, which is the balance guarantee of Assign.
func (a *assigner) rebalance() {
	for moved := true; moved; {
		moved = false
		for j := range a.nJ {
			for a.load[j] >= a.minLoad()+2 {
				s, to, ok := a.bestMove(j)
				if !ok || a.load[to]+2 > a.load[j] {
					break
				}
				a.move(s, j, to)
				moved = true
			}
		}
	}
}

// minLoad returns the lowest load of a judge in Judges (0 when none is).
func (a *assigner) minLoad() int {
	m := -1
	for j, l := range a.load {
		if a.avail[j] && (m < 0 || l < m) {
			m = l
		}
	}
	return max(m, 0)
}

// bestMove returns, over the movable seats of judge from, the eligible judge
// with the lowest load (ties by judge id, then by the seat's age) and the
// submission of that seat.
func (a *assigner) bestMove(from int) (s, to int, ok bool) {
	bestLoad := 0
	for _, sub := range a.movable[from] {
		row := a.grid[sub*a.nJ : (sub+1)*a.nJ]
		for j, c := range row {
			if c&(cellClosed|cellOn) != 0 {
				continue
			}
			if !ok || a.load[j] < bestLoad || (a.load[j] == bestLoad && j < to) {
				s, to, bestLoad, ok = sub, j, a.load[j], true
			}
		}
	}
	return s, to, ok
}

// move hands the non-fixed seat of judge from on submission s to judge to.
func (a *assigner) move(s, from, to int) {
	a.grid[s*a.nJ+from] &^= cellOn
	a.grid[s*a.nJ+to] |= cellOn
	p := a.panels[s]
	p[slices.Index(p, from)] = to
	a.load[from]--
	a.load[to]++
	m := a.movable[from]
	a.movable[from] = slices.Delete(m, slices.Index(m, s), slices.Index(m, s)+1)
	a.movable[to] = append(a.movable[to], s)
}

// Loads counts the panels each judge sits on in asg. Judges on no panel are
// absent from the map.
func Loads(asg []Assignment) map[string]int {
	out := make(map[string]int)
	for _, as := range asg {
		for _, j := range as.JudgeIDs {
			out[j]++
		}
	}
	return out
}

// sortedUnique returns a sorted copy of ids without duplicates.
func sortedUnique(ids []string) []string {
	out := slices.Clone(ids)
	slices.Sort(out)
	return slices.Compact(out)
}

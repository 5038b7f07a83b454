package audit

// Grade cut-offs (score out of 100): A+ ≥ 95, A ≥ 85, B ≥ 70, C ≥ 55,
// D ≥ 40, F below.
var gradeCutoffs = []struct {
	min   int
	grade string
}{
	{95, "A+"}, {85, "A"}, {70, "B"}, {55, "C"}, {40, "D"}, {0, "F"},
}

// GradeOf is the grade of a score out of 100.
func GradeOf(score int) string {
	for _, c := range gradeCutoffs {
		if score >= c.min {
			return c.grade
		}
	}
	return "F"
}

// Score runs the seven checks on a snapshot, in the seed's order, and
// grades the sum. It is pure and deterministic: the same snapshot gives
// the same Scan (ScannedAt is the snapshot's At).
func Score(s Snapshot) Scan {
	spec := parseSnapshotSpec(s)
	checks := []CheckResult{
		checkLLMsTxt(s),
		openAPICheck(s, spec),
		checkRobots(s),
		checkStructured(s),
		authCheck(s, spec),
		checkFormat(s),
		checkErrors(s),
	}
	total, maxScore := 0, 0
	for _, c := range checks {
		total += c.Score
		maxScore += c.MaxScore
	}
	return Scan{
		URL:           s.Target,
		Score:         total,
		MaxScore:      maxScore,
		Grade:         GradeOf(total),
		ScannedAt:     s.At,
		RubricVersion: RubricVersion,
		Checks:        checks,
	}
}

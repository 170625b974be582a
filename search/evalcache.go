package search

import "github.com/outflank-othello/outflank/eval"

// evalCacheBits sets the size of a searcher's evaluation cache: 2^bits
// entries of 24 bytes.
const evalCacheBits = 12

// evalCache holds a searcher's latest evaluations by position, direct
// mapped: about a quarter of the midgame search's evaluations are of a
// position evaluated a moment before (a node's Multi-ProbCut gate
// evaluates the position its parent evaluated to order its moves; a
// re-searched node one ply above the leaves evaluates its children again),
// and a hit costs a multiplication and a load of a table that stays in
// the cache, where an evaluation reads some 60 weights spread over two
// megabytes. The key is the whole position, so a hit returns exactly
// what the evaluation would: the node counts and the search are the same.
type evalCache [1 << evalCacheBits]evalEntry

// evalEntry is one cached evaluation; the zero entry (the empty board,
// never evaluated) is empty.
type evalEntry struct {
	p, o uint64
	v    int32
}

// entry returns the cache entry of the position (p, o).
func (c *evalCache) entry(p, o uint64) *evalEntry {
	return &c[(p*0x9E3779B97F4A7C15^o*0xC2B2AE3D27D4EB4F)>>(64-evalCacheBits)]
}

// evaluate returns s.ie.EvaluateState(st), from the cache when the
// position was the last evaluated in its entry.
func (s *searcher) evaluate(st *eval.State) int {
	e := s.evals.entry(st.P, st.O)
	if e.p == st.P && e.o == st.O {
		return int(e.v)
	}
	v := s.ie.EvaluateState(st)
	*e = evalEntry{st.P, st.O, int32(v)}
	return v
}

// playEvaluate returns s.ie.PlayEvaluate(st, sq, flips), the evaluation
// of the child of st by the move sq, from the cache when it can.
func (s *searcher) playEvaluate(st *eval.State, sq int, flips uint64) int {
	p, o := st.O&^flips, st.P|flips|sqBit(sq)
	e := s.evals.entry(p, o)
	if e.p == p && e.o == o {
		return int(e.v)
	}
	v := s.ie.PlayEvaluate(st, sq, flips)
	*e = evalEntry{p, o, int32(v)}
	return v
}

package train

import (
	"math"
	"testing"

	"github.com/outflank-othello/outflank/eval"
)

// adamEpochReference is adamEpoch written plainly, with separate arrays for
// the weights, each moment, the gradients and the marks, and each
// position's features taken just before its weights are read: what
// adamEpoch must equal bit for bit.
// refState is state as adamEpochReference keeps it: the weights and each
// moment in arrays of their own.
type refState struct {
	w, m, v []float32
	t       uint64
}

func adamEpochReference(st *refState, samples []Sample, order []int32, rate float64, cfg Config, phase string) {
	const b1, b2, eps = 0.9, 0.999, 1e-8
	stride := eval.PackedStride()
	grad := make([]float32, len(st.w))
	mark := make([]uint32, len(st.w)) // batch number+1 that last touched a weight
	var touched []int32
	var all [eval.NumFeatures]int32
	keep := kept(cfg)
	f := make([]int32, len(keep))
	l2 := float32(cfg.L2)
	smooth := float32(cfg.Smooth)
	tie := cfg.StageTie
	nStages := cfg.Stages / tie * tie
	for start := 0; start < len(order); start += cfg.Batch {
		if cfg.Progress != nil && start/cfg.Batch%256 == 0 {
			cfg.Progress(phase, start, len(order))
		}
		batch := order[start:min(start+cfg.Batch, len(order))]
		id := uint32(start/cfg.Batch + 1)
		touched = touched[:0]
		for _, i := range batch {
			s := &samples[i]
			stage, other := trainedStages(cfg, eval.Features(s.Player, s.Opponent, &all))
			for i, k := range keep {
				f[i] = all[k]
			}
			for _, sg := range [2]int{stage, other} {
				if sg < 0 {
					continue
				}
				base := int32(sg * stride)
				var pred float32
				for _, k := range f {
					pred += st.w[base+k]
				}
				e := pred - float32(s.Score)
				for _, k := range f {
					j := base + k
					if mark[j] != id {
						mark[j] = id
						touched = append(touched, j)
					}
					grad[j] += e
				}
			}
		}
		st.t++
		c1 := float32(1 - math.Pow(b1, float64(st.t)))
		c2 := float32(1 - math.Pow(b2, float64(st.t)))
		lr := float32(rate) * float32(math.Sqrt(float64(c2))) / c1
		for _, j := range touched {
			// The gradient is summed, not averaged, over the batch: a weight
			// seen once gets its position's full error against the L2 pull,
			// while Adam's normalisation makes the step size independent of
			// the scale anyway.
			g := grad[j] + l2*st.w[j]
			grad[j] = 0
			if smooth > 0 {
				sg := int(j) / stride
				if sg >= tie {
					g += smooth * (st.w[j] - st.w[int(j)-tie*stride])
				}
				if sg+tie < nStages {
					g += smooth * (st.w[j] - st.w[int(j)+tie*stride])
				}
			}
			m := b1*st.m[j] + (1-b1)*g
			v := b2*st.v[j] + (1-b2)*g*g
			st.m[j], st.v[j] = m, v
			st.w[j] -= lr * m / (float32(math.Sqrt(float64(v))) + eps)
		}
	}
}

// adamEpoch's memory layout, batching and threads change nothing in the
// arithmetic: the weights and moments after two epochs equal
// adamEpochReference's bit for bit, with every option that reaches the
// update and with 1 to 7 threads (batches smaller than the threads
// included).
func TestAdamEpochMatchesReference(t *testing.T) {
	samples, _ := Labeler{}.Extract(testGames(t)[:150], func(error) {}, nil)
	order := make([]int32, len(samples))
	for i := range order {
		order[i] = int32((i * 7919) % len(samples)) // a fixed permutation (7919 is prime, the count is not a multiple)
	}
	if len(samples)%7919 == 0 {
		t.Fatal("pick another step")
	}
	for _, cfg := range []Config{
		{Stages: 30, StageTie: 1, Batch: 64, L2: 1e-4},
		{Stages: 30, StageTie: 1, Batch: 256, L2: 1e-4, Overlap: 1, Smooth: 2, Workers: 1},
		{Stages: 30, StageTie: 1, Batch: 100, L2: 1e-3, Overlap: 1, Smooth: 2, Workers: 2},
		{Stages: 30, StageTie: 1, Batch: 256, L2: 1e-4, Overlap: 1, Smooth: 2, Workers: 3},
		{Stages: 30, StageTie: 3, Batch: 37, Overlap: 2, Smooth: 0.5, Disable: []string{"row2", "parity"}, Workers: 4},
		{Stages: 60, StageTie: 1, Batch: 5, Overlap: 1, Smooth: 1, Workers: 7},
		{Stages: 60, StageTie: 1, Batch: 3, Overlap: 1, Smooth: 1, Workers: 2}, // many hand-overs to the reader
	} {
		n := cfg.Stages * eval.PackedStride()
		p, free := newWeights(n)
		defer free()
		fast := state{p: p}
		ref := refState{w: make([]float32, n), m: make([]float32, n), v: make([]float32, n)}
		for ep, rate := range []float64{0.03, 0.01} {
			adamEpoch(&fast, samples, order, rate, cfg, "")
			adamEpochReference(&ref, samples, order, rate, cfg, "")
			if fast.t != ref.t {
				t.Fatalf("%+v epoch %d: %d steps, reference %d", cfg, ep+1, fast.t, ref.t)
			}
			moved := false
			for j := range n {
				x := fast.p[memIndex(j, n, cfg.Stages)]
				if math.Float32bits(x.w) != math.Float32bits(ref.w[j]) ||
					math.Float32bits(x.m) != math.Float32bits(ref.m[j]) ||
					math.Float32bits(x.v) != math.Float32bits(ref.v[j]) {
					t.Fatalf("%+v epoch %d: weight %d is %v %v %v, reference %v %v %v", cfg, ep+1, j,
						x.w, x.m, x.v, ref.w[j], ref.m[j], ref.v[j])
				}
				moved = moved || x.w != 0
			}
			if !moved {
				t.Fatalf("%+v: no weight moved", cfg)
			}
		}
	}
}

package train

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/atomicfile"
	"github.com/outflank-othello/outflank/eval"
)

// Config controls a training run. The same data, Config and seed give the
// same weights.
type Config struct {
	Seed      uint64
	HoldOut   float64 // share of games kept out of training, e.g. 0.1
	Epochs    int
	Optimizer string  // "adam" (mini-batch Adam, the default) or "sgd" (per position)
	Batch     int     // positions per Adam step
	Rate      float64 // initial step: Adam's step in discs; SGD's per disc of error
	FinalRate float64 // the step decays geometrically to this at the last epoch
	L2        float64 // L2 regularisation: weight decay per update
	// Overlap: a position within Overlap empties of the edge of its stage
	// also trains the neighbouring stage (Adam only; 0 = off). Neighbouring
	// stages then agree where they meet, and a stage with few or biased
	// labels (20-23 empties) learns from its neighbour's (the exact labels
	// at 24 empties).
	Overlap int
	// Disable lists feature families (eval.FeatureFamily names) left out:
	// their weights stay 0. For ablations.
	Disable []string
	// StageTie > 1 trains groups of StageTie neighbouring stages as one
	// (the weights of a group are equal), e.g. 2 for the 15 stages of 4
	// empties of layout 1 on today's 30 stages of 2. For ablations.
	StageTie int
	// Smooth pulls each updated weight towards the same weight of the
	// neighbouring stages: the gradient of Smooth/2 times the squared
	// differences. Finer stages have fewer positions each; this lets a
	// stage borrow from its neighbours where its own data is thin.
	Smooth float64
	// Stages is the number of weight stages (eval.ValidStages; 0:
	// eval.DefaultStages). Finer stages follow the game more closely and
	// need more positions: see eval/README.md's ablations.
	Stages int
	// Init, if not nil, holds the weights the fit starts from (the
	// moments start at zero): a run that goes on from a finished fit with
	// more data costs its few epochs, not a fit from nothing. Its stages
	// must be Stages.
	Init *eval.Pattern
	// Workers is the number of threads of the fit (0 or 1: one). The
	// weights do not depend on it.
	Workers int
	// Copies names the samples that train more than once (train's
	// --selfplay-weight): the fit reads them as often as if their copies
	// were in the data, without making them, and Measure reads each once
	// and counts it as often as it trains.
	Copies      []Copies
	Checkpoint  string // file to save the state after each epoch ("" = none)
	Resume      bool   // start from Checkpoint if it exists
	Progress    func(phase string, done, total int)
	EpochReport func(r Report) // called after each epoch
}

// Split reports whether game g is held out, from the seed alone, so that a
// resumed or repeated run holds out the same games.
func Split(seed uint64, game int32, holdOut float64) bool {
	x := seed ^ uint64(game)*0x9E3779B97F4A7C15
	x ^= x >> 30
	x *= 0xBF58476D1CE4E5B9
	x ^= x >> 27
	x *= 0x94D049BB133111EB
	x ^= x >> 31
	return float64(x>>11)/(1<<53) < holdOut
}

// StageError is the mean absolute error, in discs, over one set of samples.
type StageError struct {
	N   int
	MAE float64
}

func (s *StageError) add(err float64, times int) {
	s.N += times
	s.MAE += float64(times) * math.Abs(err)
}

// Copies says that samples[From:To] train Times times each. The fit's
// order is that of the samples with Times−1 copies of the block written
// after it, so a run gives the weights it gave when the copies were made;
// not making them keeps a fit's memory to its distinct positions (the
// self-play positions, trained five times, were four fifths of it).
type Copies struct{ From, To, Times int }

// checkCopies reports whether cs lie in order within n samples, and the
// number of samples with their copies written out.
func checkCopies(cs []Copies, n int) (int, error) {
	end, all := 0, n
	for _, c := range cs {
		if c.From < end || c.To < c.From || c.Times < 1 || c.To > n {
			return 0, fmt.Errorf("copies %d-%d ×%d: out of order or beyond the %d samples", c.From, c.To, c.Times, n)
		}
		end = c.To
		all += (c.Times - 1) * (c.To - c.From)
	}
	if all > math.MaxInt32 {
		return 0, fmt.Errorf("%d samples with their copies: more than a fit can index", all)
	}
	return all, nil
}

// copyIndex maps indexes of the samples with their copies written out to
// indexes in samples.
type copyIndex struct {
	starts []int32 // where each block of copies starts, written out
	cs     []Copies
	shift  []int32 // written-out index minus own index before each block
}

func newCopyIndex(cs []Copies) copyIndex {
	x := copyIndex{cs: cs}
	shift := 0
	for _, c := range cs {
		x.starts = append(x.starts, int32(c.From+shift))
		x.shift = append(x.shift, int32(shift))
		shift += (c.Times - 1) * (c.To - c.From)
	}
	x.shift = append(x.shift, int32(shift))
	return x
}

// of returns the index in samples of written-out index i.
func (x copyIndex) of(i int32) int32 {
	b, _ := slices.BinarySearch(x.starts, i+1) // blocks starting at or before i
	if b == 0 {
		return i
	}
	c := x.cs[b-1]
	if n := int32(c.To - c.From); i-x.starts[b-1] < int32(c.Times)*n {
		return int32(c.From) + (i-x.starts[b-1])%n
	}
	return i - x.shift[b]
}

func (s *StageError) done() {
	if s.N > 0 {
		s.MAE /= float64(s.N)
	}
}

// Report holds the errors of the quantised weights after an epoch.
type Report struct {
	Epoch              int
	Train, Test        []StageError // by stage
	TrainAll, TestAll  StageError
	TestExactByEmpties map[int]*StageError // held-out samples with exact labels, by empties
}

// state is what a checkpoint holds.
type state struct {
	epoch int // epochs completed
	// p holds each weight beside its Adam moments: the one copy of the
	// weights, which adamEpoch updates in place. Weight k of stage sg is
	// p[k*stages+sg] (weightAt): a weight's stages sit side by side, so
	// the smoothing's reads of a weight's neighbouring stages, and the
	// second stage a position near a stage's edge trains, are in the cache
	// line the weight's own read brings (the file formats keep the stages
	// apart, each a table).
	p []adamWeight
	t uint64 // Adam steps taken
}

// Fit trains weights on samples and returns the evaluation after the last
// epoch with the held-out errors of every epoch.
func Fit(samples []Sample, cfg Config) (*eval.Pattern, []Report, error) {
	if cfg.Stages == 0 {
		cfg.Stages = eval.DefaultStages
	}
	if !eval.ValidStages(cfg.Stages) {
		return nil, nil, fmt.Errorf("%d stages: want a divisor of 60", cfg.Stages)
	}
	if cfg.StageTie > 1 && cfg.Stages%cfg.StageTie != 0 {
		return nil, nil, fmt.Errorf("stage tie %d: want a divisor of the %d stages", cfg.StageTie, cfg.Stages)
	}
	if cfg.Checkpoint != "" {
		// Two fits on one checkpoint would each resume from it and save
		// over the other's epochs.
		unlock, err := atomicfile.Lock(cfg.Checkpoint, nil)
		if err != nil {
			return nil, nil, err
		}
		defer unlock()
	}
	all, err := checkCopies(cfg.Copies, len(samples))
	if err != nil {
		return nil, nil, err
	}
	stride := eval.PackedStride()
	n := cfg.Stages * stride
	p, free := newWeights(n)
	defer free() // after the last quantise: nothing returned points into p
	st := state{p: p}
	if cfg.Batch <= 0 {
		cfg.Batch = 256
	}
	if cfg.StageTie <= 0 {
		cfg.StageTie = 1
	}
	for _, name := range cfg.Disable {
		known := false
		for k := range eval.NumFeatures {
			known = known || eval.FeatureFamily(k) == name
		}
		if !known {
			return nil, nil, fmt.Errorf("unknown feature family %q", name)
		}
	}
	if cfg.Init != nil {
		if cfg.Init.Stages() != cfg.Stages {
			return nil, nil, fmt.Errorf("initial weights of %d stages for a fit of %d", cfg.Init.Stages(), cfg.Stages)
		}
		// quantise's inverse: the fit goes on from the weights as the
		// engine reads them.
		for i, q := range cfg.Init.Packed() {
			st.p[memIndex(i, n, cfg.Stages)].w = float32(q) / eval.Scale
		}
	}
	if cfg.Resume && cfg.Checkpoint != "" {
		if err := loadCheckpoint(cfg.Checkpoint, cfg, &st); err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, nil, err
		}
	}
	// ascending lists the training samples in order, copies written out,
	// the start of every epoch's shuffle: listed afresh, which is cheaper
	// than sorting the last epoch's order.
	trainIdx := make([]int32, 0, all)
	copyOf := newCopyIndex(cfg.Copies)
	ascending := func() {
		trainIdx = trainIdx[:0]
		for i := range int32(all) {
			if !Split(cfg.Seed, samples[copyOf.of(i)].Game, cfg.HoldOut) {
				trainIdx = append(trainIdx, i)
			}
		}
	}
	ascending()
	if len(trainIdx) == 0 {
		return nil, nil, errors.New("no training samples")
	}
	var reports []Report
	for ep := st.epoch; ep < cfg.Epochs; ep++ {
		rate := cfg.Rate
		if cfg.Epochs > 1 {
			rate = cfg.Rate * math.Pow(cfg.FinalRate/cfg.Rate, float64(ep)/float64(cfg.Epochs-1))
		}
		// The order depends on the seed and epoch alone, so that a resumed
		// run repeats an uninterrupted one exactly.
		ascending()
		rng := rand.New(rand.NewPCG(cfg.Seed, uint64(ep)))
		rng.Shuffle(len(trainIdx), func(i, j int) { trainIdx[i], trainIdx[j] = trainIdx[j], trainIdx[i] })
		if len(cfg.Copies) > 0 {
			for n, i := range trainIdx {
				trainIdx[n] = copyOf.of(i)
			}
		}
		phase := fmt.Sprintf("epoch %d/%d", ep+1, cfg.Epochs)
		if cfg.Optimizer == "sgd" {
			sgdEpoch(&st, samples, trainIdx, rate, cfg, phase)
		} else {
			adamEpoch(&st, samples, trainIdx, rate, cfg, phase)
		}
		if cfg.Progress != nil {
			cfg.Progress(fmt.Sprintf("epoch %d/%d", ep+1, cfg.Epochs), len(trainIdx), len(trainIdx))
		}
		st.epoch = ep + 1
		if cfg.Checkpoint != "" {
			if err := saveCheckpoint(cfg.Checkpoint, cfg, st); err != nil {
				return nil, reports, err
			}
		}
		e, err := quantise(st.p, cfg.StageTie, cfg.Stages)
		if err != nil {
			return nil, reports, err
		}
		r := Measure(e, samples, cfg.Copies, cfg.Seed, cfg.HoldOut, cfg.Progress)
		r.Epoch = ep + 1
		reports = append(reports, r)
		if cfg.EpochReport != nil {
			cfg.EpochReport(r)
		}
	}
	e, err := quantise(st.p, cfg.StageTie, cfg.Stages)
	return e, reports, err
}

// weightAt returns the index in state.p of weight k of stage sg.
func weightAt(k int32, sg, stages int) int { return int(k)*stages + sg }

// kept returns the feature slots that cfg.Disable leaves in.
func kept(cfg Config) []int {
	var k []int
	for i := range eval.NumFeatures {
		if !slices.Contains(cfg.Disable, eval.FeatureFamily(i)) {
			k = append(k, i)
		}
	}
	return k
}

// sgdEpoch makes one pass of per-position stochastic gradient descent on
// the squared error.
func sgdEpoch(st *state, samples []Sample, order []int32, rate float64, cfg Config, phase string) {
	lr := float32(rate)
	decay := float32(1 - rate*cfg.L2)
	var f [eval.NumFeatures]int32
	w := st.p
	for n, i := range order {
		if cfg.Progress != nil && n%65536 == 0 {
			cfg.Progress(phase, n, len(order))
		}
		s := &samples[i]
		stage := eval.StageOf(cfg.Stages, eval.Features(s.Player, s.Opponent, &f))
		var pred float32
		for _, k := range f {
			pred += w[weightAt(k, stage, cfg.Stages)].w
		}
		g := lr * (pred - float32(s.Score))
		for _, k := range f {
			x := &w[weightAt(k, stage, cfg.Stages)]
			x.w = x.w*decay - g
		}
	}
}

// adamEpoch makes one pass of mini-batch Adam on the squared error. Only the
// weights a batch touches are updated (a "lazy" Adam): a stage's pattern
// weights are sparse, and most configurations are rare, so Adam's
// per-weight step normalisation gives rare weights steps as large as common
// ones, and the L2 term keeps them from chasing their few positions.
//
// The pass is bound by memory latency: a batch touches some 12,000 weights
// spread over every stage's tables, hundreds of megabytes. So a weight's
// value, moments and batch gradient share 16 bytes, its stages sit side by
// side (state.p), the table sits on 2 MB pages where the kernel allows
// (with 4 KB pages nearly every read would also miss the TLB), and each
// read is asked for (prefetched) a few steps before it is made.
//
// The result does not depend on cfg.Workers. With two, one thread reads
// the next batch's positions (their features, a fifth to a third of the
// work, and the same whatever the weights) while the other fits this
// batch exactly as one thread does. With more, they share each batch.
// First each takes a share of the positions and computes their
// features and errors (the weights do not change within a batch). Then
// each owns a share of the configurations, each with all its stages, and
// walks the whole batch in order, summing the gradients of its own weights, then updates
// them in the order the batch first touched them. So every sum is made in
// the order one thread would make it, and the smoothing, which reads a
// weight's neighbours in the stages either side, finds them owned by the
// same thread, at the same point of its updates. The arithmetic, and its
// order, is that of adamEpochReference (the test's plain version), which
// gives the same weights bit for bit.
func adamEpoch(st *state, samples []Sample, order []int32, rate float64, cfg Config, phase string) {
	keep := kept(cfg)
	workers := max(cfg.Workers, 1)
	ep := &adamPass{p: st.p, stages: cfg.Stages, keep: keep, nk: len(keep), cfg: cfg,
		items: make([]batchItem, cfg.Batch), workers: workers, ahead: workers == 2,
		l2: float32(cfg.L2), smooth: float32(cfg.Smooth), tie: cfg.StageTie}
	ep.nStages = cfg.Stages / ep.tie * ep.tie
	ep.own = make([]adamOwner, workers)
	var rd *reader
	if ep.ahead {
		ep.spare = make([]batchItem, cfg.Batch)
		rd = &reader{}
		go rd.run(ep, samples)
		defer rd.quit.Store(true)
	}
	for start := 0; start < len(order); start += cfg.Batch {
		if cfg.Progress != nil && start/cfg.Batch%256 == 0 {
			cfg.Progress(phase, start, len(order))
		}
		batch := order[start:min(start+cfg.Batch, len(order))]
		next := order[min(start+cfg.Batch, len(order)):min(start+2*cfg.Batch, len(order))]
		if ep.ahead {
			// The other thread has read this batch's positions (the
			// first batch: it is asked now) and reads the next one's
			// while this one fits.
			if start == 0 {
				rd.post(batch, ep.spare)
			}
			rd.wait()
			ep.items, ep.spare = ep.spare, ep.items
			if len(next) > 0 {
				rd.post(next, ep.spare)
			}
			ep.errors(samples, batch, 0, len(batch))
		} else {
			// The next batch's positions, while this one is fitted: the
			// samples are gigabytes, read at random.
			if len(next) > 0 {
				prefetchRows(unsafe.Pointer(&samples[0]), unsafe.Sizeof(samples[0]), 1, 0, next)
			}
			share := (len(batch) + workers - 1) / workers
			parallel(workers, func(w int) {
				lo := min(w*share, len(batch))
				ep.errors(samples, batch, lo, min(lo+share, len(batch)))
			})
		}
		st.t++
		c1 := float32(1 - math.Pow(b1, float64(st.t)))
		c2 := float32(1 - math.Pow(b2, float64(st.t)))
		lr := float32(rate) * float32(math.Sqrt(float64(c2))) / c1
		if ep.ahead {
			ep.update(0, lr)
			continue
		}
		parallel(workers, func(w int) {
			if workers > 1 {
				ep.gather(w, len(batch))
			}
			ep.update(w, lr)
		})
	}
}

// reader is the thread that reads the next batch's positions. The two
// threads hand a batch over every millisecond or so, where waking a
// sleeping goroutine through a channel costs tens of microseconds and
// often runs it on the poster's own thread after the poster blocks, so
// each waits by spinning on a counter (yielding now and then, so that a
// single processor still makes progress).
type reader struct {
	posted, read atomic.Uint64 // jobs posted, and read
	quit         atomic.Bool
	batch        []int32     // the job: set before posted is raised
	items        []batchItem // where to put its positions
}

// post asks the reader for batch's positions in items.
func (r *reader) post(batch []int32, items []batchItem) {
	r.batch, r.items = batch, items
	r.posted.Add(1)
}

// wait returns when the reader has done every job posted.
func (r *reader) wait() {
	n := r.posted.Load()
	for spin := 1; r.read.Load() < n; spin++ {
		if spin%spinsPerYield == 0 {
			runtime.Gosched()
		}
	}
}

// run reads each job's positions until quit.
func (r *reader) run(ep *adamPass, samples []Sample) {
	for n := uint64(1); ; n++ {
		for spin := 1; r.posted.Load() < n; spin++ {
			if r.quit.Load() {
				return
			}
			if spin%spinsPerYield == 0 {
				runtime.Gosched()
			}
		}
		prefetchRows(unsafe.Pointer(&samples[0]), unsafe.Sizeof(samples[0]), 1, 0, r.batch)
		for b := range r.batch {
			ep.read(samples, r.batch, r.items, b)
		}
		r.read.Store(n)
	}
}

// spinsPerYield is how many checks of the counter a waiting thread makes
// before it lets the scheduler run something else.
const spinsPerYield = 1 << 12

// Adam's moment decays and the guard against dividing by zero.
const b1, b2, eps = 0.9, 0.999, 1e-8

// adamPass is one epoch's shared state: the weights, the batch's positions
// and each thread's own bookkeeping.
type adamPass struct {
	p            []adamWeight
	stages, nk   int
	keep         []int
	cfg          Config
	items        []batchItem
	workers      int
	l2, smooth   float32
	tie, nStages int
	own          []adamOwner
	// ahead: two threads, one reading the next batch's positions (their
	// features) into spare while the other fits this one as one thread
	// does, its sums made as it reads the weights.
	ahead bool
	spare []batchItem
}

// adamOwner is what one thread keeps for the weights it owns: which of
// them the batch has touched, in the order it first touched them, and its
// share of the batch's reads.
type adamOwner struct {
	touched []int32
	js      []int32   // the weight of each of its reads, in batch order
	es      []float32 // the error that read adds to its gradient
}

// A weight's second moment is never negative, so while a batch has touched
// the weight its sign bit marks it: the mark sits in the cache line the
// batch's read has just brought, where a table of marks of its own would be
// one more read at random (a quarter of an epoch). The update clears it
// before the moment is used, so the arithmetic is unchanged.
const touchedBit = 1 << 31

// touch marks x as touched by the batch and reports whether it was not
// marked before.
func touch(x *adamWeight) bool {
	b := math.Float32bits(x.v)
	x.v = math.Float32frombits(b | touchedBit)
	return b&touchedBit == 0
}

// parallel runs f(0) … f(n−1) at once and waits for them all.
func parallel(n int, f func(w int)) {
	if n == 1 {
		f(0)
		return
	}
	var wg sync.WaitGroup
	for w := 1; w < n; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f(w)
		}()
	}
	f(0)
	wg.Wait()
}

// featuresAhead is how many positions before its turn a position's
// features are computed and its weights asked for: enough for the reads to
// arrive, few enough that they are still in the nearest caches when made.
const featuresAhead = 8

// errors fills the batch's items lo…hi−1: their features (unless the
// reader has), the stages they train and the prediction's error in each.
// With one thread fitting (alone, or beside the reader) it also sums
// the gradients, position by position, while the weights just read are
// still in the nearest cache: the order of every sum and of the first
// touches is the batch's, as gather makes them for many threads, and
// reading the batch's weights a second time was most of an epoch.
func (ep *adamPass) errors(samples []Sample, batch []int32, lo, hi int) {
	p := ep.p
	at, size := unsafe.Pointer(&p[0]), unsafe.Sizeof(p[0])
	features := func(b int) {
		if !ep.ahead {
			ep.read(samples, batch, ep.items, b)
		}
		it := &ep.items[b]
		prefetchRows(at, size, ep.stages, int(it.stages[0]), it.f[:ep.nk])
	}
	for b := lo; b < min(lo+featuresAhead, hi); b++ {
		features(b)
	}
	sum := ep.workers == 1 || ep.ahead
	o := &ep.own[0]
	if sum {
		o.touched = o.touched[:0]
	}
	for b := lo; b < hi; b++ {
		if b+featuresAhead < hi {
			features(b + featuresAhead)
		}
		it := &ep.items[b]
		f := it.f[:ep.nk]
		for x, sg := range it.stages {
			if sg < 0 {
				continue
			}
			var pred float32
			for _, k := range f {
				pred += p[weightAt(k, int(sg), ep.stages)].w
			}
			e := pred - it.score
			it.err[x] = e
			if !sum {
				continue
			}
			for _, k := range f {
				j := int32(weightAt(k, int(sg), ep.stages))
				if touch(&p[j]) {
					o.touched = append(o.touched, j)
				}
				p[j].g += e
			}
		}
	}
}

// read fills items[b] from the position batch[b]: its features (those
// the fit keeps), the stages it trains and its label.
func (ep *adamPass) read(samples []Sample, batch []int32, items []batchItem, b int) {
	var all [eval.NumFeatures]int32
	s := &samples[batch[b]]
	it := &items[b]
	stage, other := trainedStages(ep.cfg, eval.Features(s.Player, s.Opponent, &all))
	for i, k := range ep.keep {
		it.f[i] = all[k]
	}
	it.stages = [2]int32{int32(stage), int32(other)}
	it.score = float32(s.Score)
}

// owner returns the thread that owns weight k of every stage.
func (ep *adamPass) owner(k int32) int {
	if ep.workers == 1 {
		return 0
	}
	return int(uint32(k) % uint32(ep.workers))
}

// gather sums thread w's gradients over the batch's n positions, in batch
// order, and lists the weights of its own that they touched, in the order
// they were first touched.
func (ep *adamPass) gather(w, n int) {
	o := &ep.own[w]
	o.js, o.es, o.touched = o.js[:0], o.es[:0], o.touched[:0]
	for b := range n {
		it := &ep.items[b]
		for x, sg := range it.stages {
			if sg < 0 {
				continue
			}
			e := it.err[x]
			for _, k := range it.f[:ep.nk] {
				if ep.owner(k) == w {
					o.js = append(o.js, int32(weightAt(k, int(sg), ep.stages)))
					o.es = append(o.es, e)
				}
			}
		}
	}
	p := ep.p
	at, size := unsafe.Pointer(&p[0]), unsafe.Sizeof(p[0])
	for i, j := range o.js {
		if i%prefetchChunk == 0 {
			prefetchRows(at, size, 1, 0, o.js[min(i+prefetchAhead, len(o.js)):min(i+prefetchAhead+prefetchChunk, len(o.js))])
		}
		if touch(&p[j]) {
			o.touched = append(o.touched, j)
		}
		p[j].g += o.es[i]
	}
}

// update makes the Adam step of each weight of thread w's that the batch
// touched, in the order it touched them.
func (ep *adamPass) update(w int, lr float32) {
	o := &ep.own[w]
	p := ep.p
	at, size := unsafe.Pointer(&p[0]), unsafe.Sizeof(p[0])
	step := ep.tie // from a weight to the same weight of the next stage (tied group)
	for i, j := range o.touched {
		if i%prefetchChunk == 0 {
			ahead := o.touched[min(i+prefetchAhead, len(o.touched)):min(i+prefetchAhead+prefetchChunk, len(o.touched))]
			prefetchRows(at, size, 1, 0, ahead)
			if ep.smooth > 0 {
				// Its neighbours for the smoothing: in the weight's cache
				// line three times in four, else in the next or the one
				// before, which the batch may not have read.
				prefetchRows(at, size, 1, -step, ahead)
				prefetchRows(at, size, 1, step, ahead)
			}
		}
		// The gradient is summed, not averaged, over the batch: a weight
		// seen once gets its position's full error against the L2 pull,
		// while Adam's normalisation makes the step size independent of
		// the scale anyway.
		x := &p[j]
		g := x.g + ep.l2*x.w
		x.g = 0
		if ep.smooth > 0 {
			sg := int(j) % ep.stages
			if sg >= ep.tie {
				g += ep.smooth * (x.w - p[int(j)-step].w)
			}
			if sg+ep.tie < ep.nStages {
				g += ep.smooth * (x.w - p[int(j)+step].w)
			}
		}
		m := b1*x.m + (1-b1)*g
		v := b2*math.Float32frombits(math.Float32bits(x.v)&^touchedBit) + (1-b2)*g*g
		x.m, x.v = m, v
		x.w -= lr * m / (float32(math.Sqrt(float64(v))) + eps)
	}
}

// The update asks for the weight it will read prefetchAhead reads later,
// prefetchChunk at a time.
const (
	prefetchAhead = 32
	prefetchChunk = 16
)

// trainedStages returns the stage that a position with this many empties
// trains and the neighbouring stage it also trains (-1: none): with
// StageTie, a tied group's first stage; with Overlap, the neighbour across
// the nearer edge of its stage when the position is within Overlap empties
// of it.
func trainedStages(cfg Config, empties int) (stage, other int) {
	tie := cfg.StageTie
	nStages := cfg.Stages / tie * tie
	stage = eval.StageOf(cfg.Stages, empties)
	stage -= stage % tie
	other = -1
	if cfg.Overlap > 0 {
		lo, _ := eval.StageRange(cfg.Stages, stage)
		_, hi := eval.StageRange(cfg.Stages, stage+tie-1)
		switch {
		case empties < lo+cfg.Overlap && stage > 0:
			other = stage - tie
		case empties > hi-cfg.Overlap && stage+tie < nStages:
			other = stage + tie
		}
	}
	return stage, other
}

// adamWeight is one weight, its Adam moments and its gradient summed over
// the batch being fitted (the SGD optimiser uses w alone).
type adamWeight struct{ w, m, v, g float32 }

// batchItem is one position of a batch: the stages it trains (-1: none),
// the prediction's error in each, its label and its features.
type batchItem struct {
	stages [2]int32
	err    [2]float32
	score  float32
	f      [eval.NumFeatures]int32
}

// quantise rounds the weights of stages stages to int16 units of
// 1/eval.Scale disc; with tie > 1 every stage takes the weights of the
// first of its group.
func quantise(w []adamWeight, tie, stages int) (*eval.Pattern, error) {
	q := make([]int16, len(w))
	stride := eval.PackedStride()
	for i := range q {
		st, k := i/stride, int32(i%stride)
		v := w[weightAt(k, st-st%tie, stages)].w
		x := math.Round(float64(v) * eval.Scale)
		q[i] = int16(min(max(x, math.MinInt16), math.MaxInt16))
	}
	return eval.FromPacked(q, stages)
}

// Measure returns the mean absolute errors of e, per stage, on the training
// and held-out samples, with held-out exact labels by empties. copies
// (checked by Fit) names samples that train more than once: each counts as
// often as it trains.
func Measure(e *eval.Pattern, samples []Sample, copies []Copies, seed uint64, holdOut float64, progress func(string, int, int)) Report {
	r := Report{TestExactByEmpties: map[int]*StageError{},
		Train: make([]StageError, e.Stages()), Test: make([]StageError, e.Stages())}
	span := func(from, to, times int) {
		for i := from; i < to; i++ {
			if progress != nil && i%65536 == 0 {
				progress("measuring", i, len(samples))
			}
			s := &samples[i]
			err := float64(e.Score(s.Player, s.Opponent))/eval.Scale - float64(s.Score)
			st := eval.StageOf(e.Stages(), s.Empties())
			if Split(seed, s.Game, holdOut) {
				r.Test[st].add(err, times)
				r.TestAll.add(err, times)
				if s.Exact {
					x := r.TestExactByEmpties[s.Empties()]
					if x == nil {
						x = &StageError{}
						r.TestExactByEmpties[s.Empties()] = x
					}
					x.add(err, times)
				}
			} else {
				r.Train[st].add(err, times)
				r.TrainAll.add(err, times)
			}
		}
	}
	at := 0
	for _, c := range copies {
		span(at, c.From, 1)
		span(c.From, c.To, c.Times)
		at = c.To
	}
	span(at, len(samples), 1)
	for i := range r.Train {
		r.Train[i].done()
		r.Test[i].done()
	}
	r.TrainAll.done()
	r.TestAll.done()
	for _, x := range r.TestExactByEmpties {
		x.done()
	}
	return r
}

// Checkpoint file: "OFCK", version, config hash, epochs done, weight count,
// Adam steps, float32 weights and Adam moments, CRC-32 of everything before.
const ckMagic = "OFCK"

func configHash(cfg Config, n int) uint32 {
	s := fmt.Sprintf("%d %g %d %q %d %g %g %g %d %d %q %d %g", cfg.Seed, cfg.HoldOut, cfg.Epochs, cfg.Optimizer, cfg.Batch, cfg.Rate, cfg.FinalRate, cfg.L2, cfg.Overlap, n, cfg.Disable, cfg.StageTie, cfg.Smooth)
	if cfg.Stages != eval.DefaultStages { // so that checkpoints of the default keep their hash
		s += fmt.Sprintf(" stages=%d", cfg.Stages)
	}
	if cfg.Init != nil {
		s += " init=" + cfg.Init.Digest() // not the encoded file's checksum: that compresses every weight first
	}
	return crc32.ChecksumIEEE([]byte(s))
}

func saveCheckpoint(path string, cfg Config, st state) error {
	var b bytes.Buffer
	b.WriteString(ckMagic)
	le := binary.LittleEndian
	b.Write(le.AppendUint32(nil, 1))
	b.Write(le.AppendUint32(nil, configHash(cfg, len(st.p))))
	b.Write(le.AppendUint32(nil, uint32(st.epoch)))
	b.Write(le.AppendUint32(nil, uint32(len(st.p))))
	b.Write(le.AppendUint64(nil, st.t))
	// The weights, then each moment, as whole arrays: the layout of the
	// file does not follow the one in memory.
	for _, field := range []func(*adamWeight) float32{
		func(x *adamWeight) float32 { return x.w },
		func(x *adamWeight) float32 { return x.m },
		func(x *adamWeight) float32 { return x.v },
	} {
		for j := range st.p {
			b.Write(le.AppendUint32(nil, math.Float32bits(field(&st.p[memIndex(j, len(st.p), cfg.Stages)]))))
		}
	}
	b.Write(le.AppendUint32(nil, crc32.ChecksumIEEE(b.Bytes())))
	return atomicfile.WriteFile(path, b.Bytes()) // never leave a half-written checkpoint
}

// loadCheckpoint reads a checkpoint into st, whose weights are allocated;
// on an error st is unchanged.
func loadCheckpoint(path string, cfg Config, st *state) error {
	data, err := bitboard.ReadRegular(path)
	if err != nil {
		return err
	}
	n := len(st.p)
	le := binary.LittleEndian
	bad := func(why string) error {
		return fmt.Errorf("checkpoint %s: %s", path, why)
	}
	if len(data) < 24 || string(data[:4]) != ckMagic {
		return bad("not a training checkpoint")
	}
	if want := 28 + 12*n + 4; len(data) != want {
		return bad(fmt.Sprintf("%d bytes, want %d (truncated, or another layout)", len(data), want))
	}
	if crc32.ChecksumIEEE(data[:len(data)-4]) != le.Uint32(data[len(data)-4:]) {
		return bad("checksum mismatch")
	}
	if le.Uint32(data[4:]) != 1 || le.Uint32(data[8:]) != configHash(cfg, n) || int(le.Uint32(data[16:])) != n {
		return bad("made with other settings (seed, epochs, rates, hold-out); delete it or use the same settings")
	}
	st.epoch, st.t = int(le.Uint32(data[12:])), le.Uint64(data[20:])
	at := func(k, i int) float32 { return math.Float32frombits(le.Uint32(data[28+4*(k*n+i):])) }
	for i := range st.p {
		st.p[memIndex(i, n, cfg.Stages)] = adamWeight{w: at(0, i), m: at(1, i), v: at(2, i)}
	}
	return nil
}

// memIndex returns the index in state.p of the weight at index i of the
// n weights in file order (stage after stage).
func memIndex(i, n, stages int) int {
	stride := n / stages
	return weightAt(int32(i%stride), i/stride, stages)
}

// WriteReport prints a per-stage error table.
func WriteReport(w io.Writer, r Report) {
	fmt.Fprintf(w, "%-9s %10s %9s %10s %9s\n", "empties", "train n", "train MAE", "held-out n", "held MAE")
	for st := len(r.Train) - 1; st >= 0; st-- {
		lo, hi := eval.StageRange(len(r.Train), st)
		fmt.Fprintf(w, "%2d-%-6d %10d %9.2f %10d %9.2f\n", lo, hi, r.Train[st].N, r.Train[st].MAE, r.Test[st].N, r.Test[st].MAE)
	}
	fmt.Fprintf(w, "%-9s %10d %9.2f %10d %9.2f\n", "all", r.TrainAll.N, r.TrainAll.MAE, r.TestAll.N, r.TestAll.MAE)
	for e := 0; e <= 60; e++ {
		if x := r.TestExactByEmpties[e]; x != nil {
			fmt.Fprintf(w, "held-out exact labels at %d empties: n=%d MAE %.2f\n", e, x.N, x.MAE)
		}
	}
}

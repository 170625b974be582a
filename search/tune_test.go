package search

import (
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"slices"
	"strconv"
	"testing"

	"github.com/outflank-othello/outflank/eval"
)

// TestTuneKnobsAgree reads tune.go (the constants of normal builds) and
// exp.go (the environment overrides of -tags exptune builds) and checks that
// they list the same knobs with the same defaults, each read from the
// variable named after it, so the two lists cannot drift apart.
func TestTuneKnobsAgree(t *testing.T) {
	fset := token.NewFileSet()
	consts := map[string]int{}
	f, err := parser.ParseFile(fset, "tune.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	ast.Inspect(f, func(n ast.Node) bool {
		if vs, ok := n.(*ast.ValueSpec); ok {
			for i, name := range vs.Names {
				consts[name.Name] = intLit(t, vs.Values[i])
			}
		}
		return true
	})
	knobs := map[string]int{}
	f, err = parser.ParseFile(fset, "exp.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	ast.Inspect(f, func(n ast.Node) bool {
		vs, ok := n.(*ast.ValueSpec)
		if !ok {
			return true
		}
		for i, name := range vs.Names {
			call, ok := vs.Values[i].(*ast.CallExpr)
			if !ok || len(call.Args) != 2 {
				t.Errorf("exp.go: %s is not knob(name, default)", name.Name)
				continue
			}
			env, err := strconv.Unquote(call.Args[0].(*ast.BasicLit).Value)
			if err != nil || env != name.Name {
				t.Errorf("exp.go: %s is read from %s, want its own name", name.Name, call.Args[0].(*ast.BasicLit).Value)
			}
			knobs[name.Name] = intLit(t, call.Args[1])
		}
		return true
	})
	if len(consts) == 0 {
		t.Fatal("no knobs found in tune.go")
	}
	// The default level is written twice, as the exported constant and as
	// the knob that selectivityOf reads (knobs are literals): they must
	// agree, or DefaultSelectivity would misstate what a search runs at.
	if v := consts["midSelectivityPercent"]; v != DefaultSelectivity {
		t.Errorf("tune.go: midSelectivityPercent %d, DefaultSelectivity %d: want them equal", v, DefaultSelectivity)
	}
	if !maps.Equal(consts, knobs) {
		names := slices.Sorted(maps.Keys(consts))
		for _, k := range slices.Sorted(maps.Keys(knobs)) {
			if _, ok := consts[k]; !ok {
				names = append(names, k)
			}
		}
		for _, k := range names {
			c, okc := consts[k]
			e, oke := knobs[k]
			if c != e || okc != oke {
				t.Errorf("knob %s: tune.go %d (listed %v), exp.go %d (listed %v)", k, c, okc, e, oke)
			}
		}
	}
}

// intLit reads an integer literal, possibly negated.
func intLit(t *testing.T, e ast.Expr) int {
	t.Helper()
	neg := 1
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.SUB {
		neg, e = -1, u.X
	}
	lit, ok := e.(*ast.BasicLit)
	if !ok {
		t.Fatalf("%T is not an integer literal", e)
	}
	v, err := strconv.Atoi(lit.Value)
	if err != nil {
		t.Fatal(err)
	}
	return neg * v
}

// The trained evaluation keeps its state incrementally.
var _ IncrementalEvaluator = (*eval.Pattern)(nil)

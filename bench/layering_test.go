package bench

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestLayering keeps the engine's packages in their order: bitboard ←
// eval, tt ← search ← book. Each may import only the packages below it;
// tools that use the engine (training, self-play, model fits) live under
// cmd/outflank, above all of them. A package's direct imports are checked,
// which is enough: the allowed sets are closed downwards.
func TestLayering(t *testing.T) {
	const module = "github.com/outflank-othello/outflank/"
	allowed := map[string][]string{
		"bitboard":                    nil,
		"bitboard/internal/reference": nil,
		"bitboard/wthor":              {"bitboard"},
		"eval":                        {"bitboard"},
		"tt":                          {"bitboard"},
		"search":                      {"bitboard", "eval", "tt"},
		"book":                        {"bitboard", "bitboard/wthor", "eval", "tt", "search"},
	}
	seen := 0
	err := filepath.WalkDir("..", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel := filepath.ToSlash(strings.TrimPrefix(path, ".."+string(filepath.Separator)))
		if d.IsDir() {
			if d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") && path != ".." {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") {
			return nil
		}
		pkg := filepath.ToSlash(filepath.Dir(rel))
		top := strings.SplitN(pkg, "/", 2)[0]
		switch top {
		case "bitboard", "eval", "tt", "search", "book":
		default:
			return nil
		}
		ok, listed := allowed[pkg]
		if !listed {
			t.Errorf("%s: package %s is not in the layering table; add it with what it may import", rel, pkg)
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		seen++
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if !strings.HasPrefix(p, module) {
				continue
			}
			p = strings.TrimPrefix(p, module)
			if !contains(ok, p) && !strings.HasPrefix(p, pkg+"/internal/") {
				t.Errorf("%s imports %s: %s may import only %v", rel, p, pkg, ok)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if seen < 20 {
		t.Fatalf("only %d engine source files found: run from bench/", seen)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

package bench

import (
	"go/ast"
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

// commandRanks orders the packages under cmd/outflank/internal. A package
// may import the engine's packages (and bench's suites) and the internal
// packages of a lower rank only: the tools' own libraries first, then the
// play layer, then the front ends and the commands' shared helpers (cli),
// then the engine set-up, and on top the packages that each do one
// command's work, which import none of each other.
var commandRanks = map[string]int{
	"textio": 0, "atomicfile": 0, "match": 0, "mpcfit": 0, "puzzle": 0, "selfplay": 0, "train": 1,
	"play": 1, "play/playtest": 2,
	"gtp": 2, "nboard": 2, "shell": 2, "web": 2, "cli": 2,
	"engine":   3,
	"benchrun": 4, "booktool": 4, "evalcheck": 4, "matchrun": 4, "mpcrun": 4, "puzzlerun": 4,
	"review": 4, "selfplayrun": 4, "session": 4, "solve": 4, "solvedset": 4, "trainrun": 4,
	"web/wasm": 4,
}

// TestCommandLayering keeps cmd/outflank in its order: an internal
// package imports only packages below it (commandRanks), package main
// imports only cmd/outflank/internal packages, pflag and the standard
// library, and a file of package main uses only its own names and those
// of the wiring files (main.go, commands.go, protocol.go): a command's
// work lives in its package, not in another command's file.
func TestCommandLayering(t *testing.T) {
	const module = "github.com/outflank-othello/outflank/"
	const internal = module + "cmd/outflank/internal/"
	root := filepath.Join("..", "cmd", "outflank")
	seen := 0
	err := filepath.WalkDir(filepath.Join(root, "internal"), func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || strings.Contains(path, "testdata") {
			return err
		}
		rel, _ := filepath.Rel(filepath.Join(root, "internal"), filepath.Dir(path))
		pkg := filepath.ToSlash(rel)
		rank, listed := commandRanks[pkg]
		if !listed {
			t.Errorf("%s: package %s is not in commandRanks; add it with its rank", path, pkg)
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		seen++
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if !strings.HasPrefix(p, internal) {
				continue
			}
			dep := strings.TrimPrefix(p, internal)
			if r, ok := commandRanks[dep]; ok && r >= rank {
				t.Errorf("%s imports %s (rank %d): %s (rank %d) may import only lower ranks", path, dep, r, pkg, rank)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if seen < 50 {
		t.Fatalf("only %d internal source files found: run from bench/", seen)
	}
	checkMain(t, root, internal)
}

// checkMain checks package main's imports, its size (at most 1,500
// lines, no function over 60: flags and wiring, the work elsewhere) and
// that its files do not use each other's names beyond the wiring files'.
func checkMain(t *testing.T, root, internal string) {
	const maxLines, maxFuncLines = 1500, 60
	wiring := map[string]bool{"main.go": true, "commands.go": true, "protocol.go": true}
	files, err := filepath.Glob(filepath.Join(root, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	parsed := map[string]*ast.File{}
	owner := map[string]string{} // top-level name -> file declaring it
	lines := 0
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(path)
		parsed[name] = f
		lines += fset.File(f.Pos()).LineCount()
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok {
				if n := fset.Position(fn.End()).Line - fset.Position(fn.Pos()).Line + 1; n > maxFuncLines {
					t.Errorf("%s: func %s has %d lines (at most %d in package main: move its work into an internal package)", name, fn.Name.Name, n, maxFuncLines)
				}
			}
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if !strings.HasPrefix(p, internal) && p != "github.com/spf13/pflag" && strings.Contains(strings.SplitN(p, "/", 2)[0], ".") {
				t.Errorf("%s imports %s: package main imports only cmd/outflank/internal packages, pflag and the standard library", name, p)
			}
		}
		for _, obj := range f.Scope.Objects {
			if obj.Name != "init" && obj.Name != "main" {
				owner[obj.Name] = name
			}
		}
	}
	if len(parsed) < 10 {
		t.Fatalf("only %d files of package main found", len(parsed))
	}
	if lines > maxLines {
		t.Errorf("package main has %d lines, tests aside (at most %d: flags and wiring)", lines, maxLines)
	}
	for name, f := range parsed {
		for _, id := range f.Unresolved {
			if o, ok := owner[id.Name]; ok && o != name && !wiring[o] {
				t.Errorf("%s uses %s of %s: move the shared part into an internal package", name, id.Name, o)
			}
		}
	}
}

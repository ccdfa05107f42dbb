package testbin

import (
	"fmt"
	"go/scanner"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// dictEnv is the hook's DictEnv: the file of literals that a fuzz test
// fuzzed past its failures tries in its inputs' places.
const dictEnv = "FUZZMIN_FUZZ_DICT"

// Bounds of a dictionary: the literals kept, those kept of each package
// after the first, and the length of a string literal kept.
const (
	maxLiterals    = 1024
	maxDepLiterals = 256
	maxLiteralLen  = 64
)

// WriteDict writes to path the literals of the Go files in dirs, in the
// hook's format: the integers, characters, floats and strings the code
// compares its inputs with, which the toolchain's mutator rarely reaches
// by itself. dirs[0] is the package under test, whose test files count
// too; the others are packages it imports, nearest first, each of which
// gives its non-test files' literals, maxDepLiterals at most. Import
// paths, 0 and 1 and the empty string are left out, and each literal is
// written once, in the order of the directories, the files' names and
// their text.
func WriteDict(dirs []string, path string) error {
	var b strings.Builder
	seen := map[string]bool{}
	for i, dir := range dirs {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			return err
		}
		limit := maxLiterals
		if i > 0 {
			limit = min(maxLiterals, len(seen)+maxDepLiterals)
		}
		for _, file := range files {
			if i > 0 && strings.HasSuffix(file, "_test.go") {
				continue
			}
			src, err := os.ReadFile(file)
			if err != nil {
				return err
			}
			for _, l := range literals(src) {
				if len(seen) >= limit {
					break
				}
				if !seen[l] {
					seen[l] = true
					b.WriteString(l)
					b.WriteByte('\n')
				}
			}
		}
	}
	return os.WriteFile(path, []byte(b.String()), 0o666)
}

// literals returns the lines of the dictionary for the literals of src,
// a Go file; a file that does not scan gives what it holds up to the
// error.
func literals(src []byte) []string {
	var s scanner.Scanner
	fset := token.NewFileSet()
	s.Init(fset.AddFile("", -1, len(src)), src, nil, 0)
	var out []string
	inImport, parens := false, 0
	for {
		_, tok, lit := s.Scan()
		switch tok {
		case token.EOF, token.ILLEGAL:
			return out
		case token.IMPORT:
			inImport = true
			continue
		case token.LPAREN:
			if inImport {
				parens++
			}
		case token.RPAREN:
			if inImport {
				parens--
			}
		case token.SEMICOLON:
			if inImport && parens == 0 {
				inImport = false
			}
		}
		if inImport {
			continue
		}
		switch tok {
		case token.INT:
			if n, err := strconv.ParseUint(lit, 0, 64); err == nil && n > 1 {
				out = append(out, "int "+strconv.FormatUint(n, 10))
			}
		case token.CHAR:
			if s, err := strconv.Unquote(lit); err == nil {
				// A character is compared with integers and with a
				// byte or rune of a text: it is both.
				for _, r := range s {
					out = append(out, fmt.Sprint("int ", r), "string "+strconv.Quote(string(r)))
				}
			}
		case token.FLOAT:
			if x, err := strconv.ParseFloat(strings.ReplaceAll(lit, "_", ""), 64); err == nil {
				out = append(out, "float "+strconv.FormatFloat(x, 'g', -1, 64))
			}
		case token.STRING:
			if s, err := strconv.Unquote(lit); err == nil && s != "" && len(s) <= maxLiteralLen {
				out = append(out, "string "+strconv.Quote(s))
			}
		}
	}
}

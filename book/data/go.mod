// This folder is a module of its own so that the module users download
// ("go install", "go get") leaves the book job's working files out: a
// module's zip holds no nested module. Nothing in it is Go code; "outflank
// book grow" reads and writes the files by path from a clone. The finished
// book is copied to book/default.book, which is embedded.
module github.com/outflank-othello/outflank/book/data

go 1.26
